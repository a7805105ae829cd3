# SPDX-License-Identifier: GPL-2.0
# Plots of a scripts/bench results directory; called with
#   gnuplot -e "dir='DIR'; cfgs='baseline variant...'" bench.gp
# cdf.svg: wakeup latency CDF (wakelat) per configuration;
# delta-<config>.svg: every row's delta against the baseline, significant
# rows in full colour, the others pale, each bar with a whisker of +-MDE
# (the smallest change the runs could detect): a bar whose whisker crosses
# zero is noise-sized. delta-all.svg: every variant's bars side by side,
# when there are two or more.

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

# Every variant has a colour of its own, the same in every chart: full for
# the rows where it differs significantly from the baseline, pale where it
# does not.
colours = "#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf"
colour(i) = word(colours, (i - 2) % words(colours) + 1)

set boxwidth 0.7
set xtics rotate by -60 font ",8" nomirror
set ylabel "delta % (positive = better)"
set xlabel ""
set key off
base = word(cfgs, 1)
nv = 0
do for [i = 2 : words(cfgs)] {
	c = word(cfgs, i)
	f = dir . "/delta-" . c . ".dat"
	if (has_file(f)) {
		nv = nv + 1
		set output dir . "/delta-" . c . ".svg"
		set title sprintf("%s vs %s (full colour: significant, Welch + Benjamini-Hochberg; pale: not; whiskers: +-MDE)", c, base) noenhanced
		plot f using 0:($3 > 0 ? $2 : NaN):xtic(1) with boxes fs solid 0.9 border -1 lc rgb colour(i), \
			f using 0:($3 > 0 ? NaN : $2) with boxes fs solid 0.3 border -1 lc rgb colour(i), \
			f using 0:2:4 with yerrorbars lc rgb "black" pt 0
	}
}
# All variants side by side, one colour each: delta-all.svg.
if (nv > 1) {
	w = 0.8 / nv
	set boxwidth w
	set key outside top center horizontal noenhanced
	set output dir . "/delta-all.svg"
	set title sprintf("every variant vs %s (full colour: significant; pale: not; whiskers: +-MDE)", base) noenhanced
	f1 = dir . "/delta-" . word(cfgs, 2) . ".dat"
	plot f1 using 0:(NaN):xtic(1) notitle, \
		for [i = 2 : words(cfgs)] dir . "/delta-" . word(cfgs, i) . ".dat" \
			using ($0 + (i - 1.5 - nv / 2.0) * w):($3 > 0 ? $2 : NaN) with boxes fs solid 0.9 border -1 lc rgb colour(i) title word(cfgs, i), \
		for [i = 2 : words(cfgs)] dir . "/delta-" . word(cfgs, i) . ".dat" \
			using ($0 + (i - 1.5 - nv / 2.0) * w):($3 > 0 ? NaN : $2) with boxes fs solid 0.3 border -1 lc rgb colour(i) notitle, \
		for [i = 2 : words(cfgs)] dir . "/delta-" . word(cfgs, i) . ".dat" \
			using ($0 + (i - 1.5 - nv / 2.0) * w):2:4 with yerrorbars lc rgb "black" pt 0 notitle
}
