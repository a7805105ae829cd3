# SPDX-License-Identifier: GPL-2.0
# Plots of a scripts/bench results directory; called with
#   gnuplot -e "dir='DIR'; cfgs='baseline variant...'" bench.gp
# cdf.svg: wakeup latency CDF (wakelat) per configuration;
# delta-<config>.svg: every row's delta against the baseline, significant
# rows in a darker colour, each bar with a whisker of +-MDE (the smallest
# change the runs could detect): a bar whose whisker crosses zero is
# noise-sized.

set terminal svg size 900,560 dynamic font "sans,11" background rgb "white"
set datafile separator "\t"
set grid

has_file(f) = system("test -s '" . f . "' && echo 1 || echo 0") + 0

ncdf = 0
do for [c in cfgs] { ncdf = ncdf + has_file(dir . "/cdf-" . c . ".dat") }
if (ncdf > 0) {
	set output dir . "/cdf.svg"
	set title "wakelat: wakeup-to-run latency, all iterations merged"
	set xlabel "latency (us, log scale)"
	set ylabel "fraction of wakeups <= latency"
	set logscale x
	set key bottom right
	plot for [c in cfgs] dir . "/cdf-" . c . ".dat" using 1:2 with steps lw 2 title c
	unset logscale x
}

set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -60 font ",8" nomirror
set ylabel "delta % (positive = better)"
set xlabel ""
set key off
base = word(cfgs, 1)
do for [i = 2 : words(cfgs)] {
	c = word(cfgs, i)
	f = dir . "/delta-" . c . ".dat"
	if (has_file(f)) {
		set output dir . "/delta-" . c . ".svg"
		set title sprintf("%s vs %s (dark: significant, Welch + Benjamini-Hochberg; whiskers: +-MDE)", c, base) noenhanced
		plot f using 0:2:($3 > 0 ? 2051738 : 11126248):xtic(1) with boxes lc rgb variable, \
			f using 0:2:4 with yerrorbars lc rgb "black" pt 0
	}
}
