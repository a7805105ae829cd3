// SPDX-License-Identifier: GPL-2.0
/*
 * benchstat - statistics and tables for scripts/bench.
 *
 *   benchstat flat FILE.json   numeric top-level keys of a flat JSON object
 *                              (wakelat -j) as "key<TAB>value" lines
 *   benchstat report DIR       read DIR/samples.tsv, DIR/configs.tsv,
 *                              DIR/env.tsv and DIR/wakelat/<config>.<iter>.json;
 *                              write DIR/report.txt (mmtests style), report.md,
 *                              results.json, delta.dat and cdf-<config>.dat
 *   benchstat columns DIR      the same statistics as one table on stdout, every
 *                              configuration a column, each as the ratio of its
 *                              mean to the baseline's (the shape of a thread's
 *                              table, whose absolute figures do not transfer)
 *
 * samples.tsv: workload metric unit better config iteration value, where
 * better is "hi" (higher is better: Hmean), "lo" (Amean) or "info" (Amean,
 * reported but neither better nor worse, e.g. context switches per second).
 *
 * Significance: a two-sided t-test of each configuration against the
 * baseline (the first configuration), on the raw samples: Welch's, or, where
 * it gives the smaller standard error, the paired test over rounds (each
 * round runs every configuration once, in a random order, so that a drift
 * of the machine between rounds cancels in the per-round differences). The
 * p-values of one
 * configuration's rows are adjusted with Benjamini-Hochberg, so that across
 * the whole table the expected share of false "significant" rows stays below
 * ALPHA; a row is significant when its adjusted p < ALPHA. mmtests instead
 * checks whether mean +- 1.96 stddev ranges overlap, which ignores the number
 * of samples and the number of rows compared.
 *
 * Resolution: each comparison also gets its minimum detectable effect, the
 * true difference of means that the same test, at the same sample size and
 * spread, would find at ALPHA (two-sided) with POWER: (t(1 - ALPHA/2) +
 * t(POWER)) x the standard error, in % of the baseline's mean. A change
 * that is not significant and smaller than that is below resolution, not
 * shown to be absent.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALPHA		0.05
#define POWER		0.8
#define MAXCFG		32
#define MAXROW		1024
#define MAXSAMP		256
#define NAMELEN		64

struct cell {
	double v[MAXSAMP];
	int it[MAXSAMP];	/* the round (iteration) of each sample */
	int n;
	double mean, amean, sd, cov, min, max;
	double delta, p, padj, mde;
	int sig, paired;
};

struct row {
	char workload[NAMELEN], metric[NAMELEN], unit[NAMELEN], better[8];
	struct cell c[MAXCFG];
};

static char cfgname[MAXCFG][NAMELEN], cfgfeat[MAXCFG][512];
static int ncfg;
static struct row rows[MAXROW];
static int nrow;
static char envk[64][NAMELEN], envv[64][512];
static int nenv;
static const char *dir;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("benchstat: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Output files are written under a temporary name and renamed when complete. */
struct out {
	FILE *f;
	char tmp[PATH_MAX], path[PATH_MAX];
};

static FILE *out_open(struct out *o, const char *name)
{
	snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);
	snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp", dir, name);
	o->f = fopen(o->tmp, "w");
	if (!o->f)
		die("cannot write %s: %s", o->tmp, strerror(errno));
	return o->f;
}

static void out_close(struct out *o)
{
	int bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));

	if (fclose(o->f) || bad) {
		unlink(o->tmp);
		die("cannot write %s: %s", o->path, strerror(errno ? errno : EIO));
	}
	if (rename(o->tmp, o->path)) {
		unlink(o->tmp);
		die("cannot rename %s: %s", o->tmp, strerror(errno));
	}
}

/*
 * Regularized incomplete beta function I_x(a, b) by its continued fraction
 * (Abramowitz & Stegun 26.5.8), evaluated with the modified Lentz method.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f, num, del;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 500; m++) {
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		f *= c * d;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = c * d;
		f *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return f;
}

static double ibeta(double a, double b, double x)
{
	double lf;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lf = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lf) * beta_cf(a, b, x) / a;
	return 1 - exp(lf) * beta_cf(b, a, 1 - x) / b;
}

/* Two-sided tail probability of Student's t with df degrees of freedom. */
static double t_tail2(double t, double df)
{
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

/* The t > 0 whose two-sided tail is p2, by bisection. */
static double t_quantile2(double p2, double df)
{
	double lo = 0, hi = 1e4, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (t_tail2(mid, df) > p2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Compare cell y with the baseline x: p-value, the test used and the
 * minimum detectable effect, into y. Welch's test, or the paired test over
 * the rounds both have when its standard error is smaller.
 */
static void compare(const struct cell *x, struct cell *y)
{
	double vx, vy, se, df, diff, d[MAXSAMP], dm = 0, ds = 0, sep;
	int i, k, nd = 0;

	y->p = 1;
	y->mde = NAN;
	y->paired = 0;
	if (x->n < 2 || y->n < 2)
		return;
	vx = x->sd * x->sd / x->n;
	vy = y->sd * y->sd / y->n;
	se = sqrt(vx + vy);
	df = vx + vy > 0 ? (vx + vy) * (vx + vy) /
		(vx * vx / (x->n - 1) + vy * vy / (y->n - 1)) : x->n + y->n - 2;
	diff = y->amean - x->amean;
	for (i = 0; i < x->n; i++)
		for (k = 0; k < y->n; k++)
			if (x->it[i] == y->it[k] && nd < MAXSAMP)
				d[nd++] = y->v[k] - x->v[i];
	if (nd >= 3) {
		for (i = 0; i < nd; i++)
			dm += d[i] / nd;
		for (i = 0; i < nd; i++)
			ds += (d[i] - dm) * (d[i] - dm);
		sep = sqrt(ds / (nd - 1) / nd);
		if (sep < se) {
			se = sep;
			df = nd - 1;
			diff = dm;
			y->paired = 1;
		}
	}
	if (se == 0) {
		y->p = diff == 0 ? 1 : 0;
		y->mde = 0;
		return;
	}
	y->p = t_tail2(diff / se, df);
	if (x->amean)
		y->mde = 100 * (t_quantile2(ALPHA, df) + t_quantile2(2 * (1 - POWER), df)) *
			 se / fabs(x->amean);
}

static void cell_stats(struct cell *c, int hmean)
{
	double s = 0, inv = 0, ss = 0;
	int i;

	c->min = INFINITY;
	c->max = -INFINITY;
	for (i = 0; i < c->n; i++) {
		s += c->v[i];
		inv += c->v[i] > 0 ? 1 / c->v[i] : INFINITY;
		if (c->v[i] < c->min)
			c->min = c->v[i];
		if (c->v[i] > c->max)
			c->max = c->v[i];
	}
	c->amean = c->n ? s / c->n : NAN;
	for (i = 0; i < c->n; i++)
		ss += (c->v[i] - c->amean) * (c->v[i] - c->amean);
	c->sd = c->n > 1 ? sqrt(ss / (c->n - 1)) : 0;
	c->cov = c->amean ? 100 * c->sd / fabs(c->amean) : 0;
	c->mean = hmean && isfinite(inv) && inv > 0 ? c->n / inv : c->amean;
}

static int cfg_index(const char *name)
{
	int i;

	for (i = 0; i < ncfg; i++)
		if (!strcmp(cfgname[i], name))
			return i;
	return -1;
}

static char *chomp(char *s)
{
	s[strcspn(s, "\r\n")] = 0;
	return s;
}

static FILE *open_in(const char *name)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		die("cannot read %s: %s", path, strerror(errno));
	return f;
}

static void read_inputs(void)
{
	char line[4096], *tok[8], *save;
	int lineno = 0, i, k;
	struct row *r;
	FILE *f;

	f = open_in("configs.tsv");
	while (fgets(line, sizeof(line), f)) {
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		if (ncfg == MAXCFG)
			die("more than %d configurations", MAXCFG);
		save = strchr(line, '\t');
		if (save)
			*save++ = 0;
		snprintf(cfgname[ncfg], NAMELEN, "%s", line);
		snprintf(cfgfeat[ncfg], sizeof(cfgfeat[0]), "%s", save ? save : "");
		ncfg++;
	}
	fclose(f);
	if (ncfg < 2)
		die("configs.tsv needs a baseline and at least one variant");

	f = open_in("env.tsv");
	while (fgets(line, sizeof(line), f) && nenv < 64) {
		chomp(line);
		save = strchr(line, '\t');
		if (!save)
			continue;
		*save++ = 0;
		snprintf(envk[nenv], NAMELEN, "%s", line);
		snprintf(envv[nenv], sizeof(envv[0]), "%s", save);
		nenv++;
	}
	fclose(f);

	f = open_in("samples.tsv");
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		for (k = 0, save = line; k < 7 && save; k++)
			tok[k] = strsep(&save, "\t");
		if (k != 7 || save)
			die("samples.tsv:%d: expected 7 tab-separated fields", lineno);
		i = cfg_index(tok[4]);
		if (i < 0)
			die("samples.tsv:%d: unknown configuration '%s'", lineno, tok[4]);
		for (r = rows; r < rows + nrow; r++)
			if (!strcmp(r->workload, tok[0]) && !strcmp(r->metric, tok[1]))
				break;
		if (r == rows + nrow) {
			if (nrow == MAXROW)
				die("more than %d result rows", MAXROW);
			nrow++;
			snprintf(r->workload, NAMELEN, "%s", tok[0]);
			snprintf(r->metric, NAMELEN, "%s", tok[1]);
			snprintf(r->unit, NAMELEN, "%s", tok[2]);
			snprintf(r->better, sizeof(r->better), "%s", tok[3]);
			if (strcmp(r->better, "hi") && strcmp(r->better, "lo") &&
			    strcmp(r->better, "info"))
				die("samples.tsv:%d: 'better' is hi, lo or info, not '%s'",
				    lineno, r->better);
		}
		if (r->c[i].n == MAXSAMP)
			die("more than %d samples for %s %s", MAXSAMP, tok[0], tok[1]);
		r->c[i].it[r->c[i].n] = atoi(tok[5]);
		r->c[i].v[r->c[i].n++] = strtod(tok[6], NULL);
	}
	fclose(f);
	if (!nrow)
		die("%s/samples.tsv holds no samples", dir);
}

static int cmp_dbl_ptr(const void *a, const void *b)
{
	double x = **(double * const *)a, y = **(double * const *)b;

	return (x > y) - (x < y);
}

static void compute(void)
{
	double *ps[MAXROW];
	struct row *r;
	int i, k, m, hi;

	for (r = rows; r < rows + nrow; r++) {
		hi = !strcmp(r->better, "hi");
		for (i = 0; i < ncfg; i++)
			cell_stats(&r->c[i], hi);
		for (i = 0; i < ncfg; i++) {
			struct cell *b = &r->c[0], *c = &r->c[i];

			c->delta = i && b->mean ? 100 * (c->mean - b->mean) / fabs(b->mean) : 0;
			/* Signed so that positive is better, as in mmtests. */
			if (i && !strcmp(r->better, "lo"))
				c->delta = -c->delta;
			if (i)
				compare(b, c);
			else
				c->p = 1, c->mde = NAN, c->paired = 0;
			c->padj = c->p;
		}
	}
	/* Benjamini-Hochberg over one configuration's rows. */
	for (i = 1; i < ncfg; i++) {
		double run = 1;

		m = 0;
		for (r = rows; r < rows + nrow; r++)
			if (r->c[i].n && r->c[0].n)
				ps[m++] = &r->c[i].padj;
		qsort(ps, m, sizeof(ps[0]), cmp_dbl_ptr);
		for (k = m - 1; k >= 0; k--) {
			double adj = *ps[k] * m / (k + 1);

			run = adj < run ? adj : run;
			*ps[k] = run;
		}
		for (r = rows; r < rows + nrow; r++)
			r->c[i].sig = r->c[i].n && r->c[0].n && r->c[i].padj < ALPHA;
	}
}

static const char *env(const char *key)
{
	int i;

	for (i = 0; i < nenv; i++)
		if (!strcmp(envk[i], key))
			return envv[i];
	return "?";
}

/* Whether env.tsv has @key (results of older runs may lack one). */
static int known(const char *key)
{
	return strcmp(env(key), "?") != 0;
}

/* A configuration that changes nothing against the baseline: an A/A check. */
static int is_aa(int i)
{
	return i && !strcmp(cfgfeat[i], cfgfeat[0]);
}

static const char *mean_name(const struct row *r)
{
	return strcmp(r->better, "hi") ? "Amean" : "Hmean";
}

static void write_txt(void)
{
	struct out o;
	FILE *f = out_open(&o, "report.txt");
	struct row *r;
	int i;

	fprintf(f, "# kernel %s; %s; %s%s%s\n", env("kernel"), env("accel"), env("topology"),
		known("preempt") ? "; preemption " : "", known("preempt") ? env("preempt") : "");
	fprintf(f, "# %s iterations per configuration, configurations in random order each iteration\n",
		env("iterations"));
	fprintf(f, "# delta: positive is better (for info rows: change); *delta* = significant,\n");
	fprintf(f, "# Welch t-test, Benjamini-Hochberg adjusted p < %.2f per configuration\n", ALPHA);
	fprintf(f, "%-44s", "");
	for (i = 0; i < ncfg; i++)
		fprintf(f, " %22s", cfgname[i]);
	fputc('\n', f);
	for (r = rows; r < rows + nrow; r++) {
		char label[160];

		snprintf(label, sizeof(label), "%s %s %s (%s)", mean_name(r), r->workload,
			 r->metric, r->unit);
		fprintf(f, "%-44s", label);
		for (i = 0; i < ncfg; i++) {
			struct cell *c = &r->c[i];

			if (!c->n)
				fprintf(f, " %22s", "-");
			else if (c->sig)
				fprintf(f, " %12.2f *%6.2f%%*", c->mean, c->delta);
			else
				fprintf(f, " %12.2f (%6.2f%%)", c->mean, c->delta);
		}
		fputc('\n', f);
		snprintf(label, sizeof(label), "CoV   %s %s", r->workload, r->metric);
		fprintf(f, "%-44s", label);
		for (i = 0; i < ncfg; i++)
			fprintf(f, " %12.2f%% %8s", r->c[i].cov, "");
		fputc('\n', f);
	}
	out_close(&o);
}

static const struct row *ctx_row(const struct row *r)
{
	const struct row *q;

	for (q = rows; q < rows + nrow; q++)
		if (q != r && !strcmp(q->workload, r->workload) && !strcmp(q->metric, "ctxsw"))
			return q;
	return NULL;
}

/* Four significant digits, never an exponent; rotating buffers for one printf. */
static const char *num(double v)
{
	static char buf[4][32];
	static int k;

	k = (k + 1) % 4;
	if (fabs(v) >= 1000)
		snprintf(buf[k], sizeof(buf[k]), "%.0f", v);
	else
		snprintf(buf[k], sizeof(buf[k]), "%.4g", v);
	return buf[k];
}

static void write_md(void)
{
	struct out o;
	FILE *f = out_open(&o, "report.md");
	const struct row *r, *cx;
	int i, nsig, ntest;

	fprintf(f, "Kernel `%s`, %s, %s%s%s; %s iterations, configurations interleaved in a "
		"fresh random order each iteration; %s.\n\n", env("kernel"), env("accel"),
		env("topology"), known("preempt") ? ", preemption " : "",
		known("preempt") ? env("preempt") : "", env("iterations"), env("duration"));
	fprintf(f, "Delta: signed so that positive is better. Significant (**bold**): t-test "
		"against the baseline (Welch's, or paired over rounds where that has the "
		"smaller error: p marked r), p adjusted by Benjamini-Hochberg over the "
		"configuration's rows, < %.2f. MDE: the smallest change that test would "
		"detect at this sample size and spread (power %.0f%%); a change that is not "
		"significant and below it is below resolution. ctxsw/s: change of the "
		"context-switch rate during the workload.\n", ALPHA, 100 * POWER);
	for (i = 1; i < ncfg; i++) {
		nsig = ntest = 0;
		fprintf(f, "\n### %s (`%s`) vs %s%s\n\n", cfgname[i],
			cfgfeat[i][0] ? cfgfeat[i] : "-", cfgname[0],
			is_aa(i) ? " -- A/A: same features, the false-positive check" : "");
		fprintf(f, "| workload | metric | lower is better? | %s | %s | delta | MDE | p (adj) | "
			"ctxsw/s |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n", cfgname[0],
			cfgname[i]);
		for (r = rows; r < rows + nrow; r++) {
			const struct cell *b = &r->c[0], *c = &r->c[i];

			if (!strcmp(r->metric, "ctxsw") || !c->n || !b->n)
				continue;
			ntest++;
			nsig += c->sig;
			cx = ctx_row(r);
			fprintf(f, "| %s | %s (%s) | %s | %s ±%.1f%% | %s ±%.1f%% | %s%+.2f%%%s | "
				"%.1f%% | %.3f%s | ", r->workload, r->metric, r->unit,
				!strcmp(r->better, "lo") ? "yes" : !strcmp(r->better, "hi") ? "no" : "n/a",
				num(b->mean), b->cov, num(c->mean), c->cov, c->sig ? "**" : "",
				c->delta, c->sig ? "**" : "", c->mde, c->padj, c->paired ? " r" : "");
			if (cx && cx->c[i].n)
				fprintf(f, "%s%+.1f%%%s |\n", cx->c[i].sig ? "**" : "", cx->c[i].delta,
					cx->c[i].sig ? "**" : "");
			else
				fprintf(f, "- |\n");
		}
		fprintf(f, "\n%d of %d rows significant%s.\n", nsig, ntest,
			is_aa(i) ? (nsig ? " -- FALSE POSITIVES: the method reports noise" :
				    " -- no false positive") : "");
	}
	out_close(&o);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

/* ", \"key\": value" of one member of an object. */
static void json_field(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	json_num(f, v);
}

static void write_json(void)
{
	struct out o;
	FILE *f = out_open(&o, "results.json");
	const struct row *r;
	int i, k;

	fprintf(f, "{\n  \"env\": {");
	for (i = 0; i < nenv; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		json_str(f, envk[i]);
		fputs(": ", f);
		json_str(f, envv[i]);
	}
	fprintf(f, "\n  },\n  \"alpha\": %.2f,\n  \"power\": %.2f,\n  \"test\": \"welch-t or "
		"paired-t over rounds (the smaller standard error), benjamini-hochberg per "
		"configuration\",\n  \"configs\": [", ALPHA, POWER);
	for (i = 0; i < ncfg; i++) {
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, cfgname[i]);
		fputs(", \"features\": ", f);
		json_str(f, cfgfeat[i]);
		fprintf(f, ", \"baseline\": %s}", i ? "false" : "true");
	}
	fprintf(f, "\n  ],\n  \"rows\": [");
	for (r = rows; r < rows + nrow; r++) {
		fprintf(f, "%s\n    {\"workload\": ", r == rows ? "" : ",");
		json_str(f, r->workload);
		fputs(", \"metric\": ", f);
		json_str(f, r->metric);
		fputs(", \"unit\": ", f);
		json_str(f, r->unit);
		fputs(", \"better\": ", f);
		json_str(f, r->better);
		fprintf(f, ", \"mean\": \"%s\", \"configs\": {", mean_name(r));
		for (i = 0; i < ncfg; i++) {
			const struct cell *c = &r->c[i];

			fprintf(f, "%s\n      ", i ? "," : "");
			json_str(f, cfgname[i]);
			fprintf(f, ": {\"n\": %d", c->n);
			json_field(f, "mean", c->mean);
			json_field(f, "stddev", c->sd);
			json_field(f, "cov_pct", c->cov);
			json_field(f, "min", c->min);
			json_field(f, "max", c->max);
			json_field(f, "delta_pct", c->delta);
			json_field(f, "p", c->p);
			json_field(f, "p_adj", c->padj);
			json_field(f, "mde_pct", c->mde);
			fprintf(f, ", \"test\": \"%s\"", i ? c->paired ? "paired" : "welch" : "-");
			fprintf(f, ", \"significant\": %s, \"samples\": [", c->sig ? "true" : "false");
			for (k = 0; k < c->n; k++) {
				fputs(k ? ", " : "", f);
				json_num(f, c->v[k]);
			}
			fputs("]}", f);
		}
		fputs("\n    }}", f);
	}
	fputs("\n  ]\n}\n", f);
	out_close(&o);
}

/*
 * delta.dat: one line per compared row, one column per variant; and
 * delta-<config>.dat: row, delta, significant (0/1), for the bar charts.
 */
static void write_delta(void)
{
	char name[NAMELEN + 16];
	const struct row *r;
	struct out o;
	FILE *f = out_open(&o, "delta.dat");
	int i;

	fputs("row", f);
	for (i = 1; i < ncfg; i++)
		fprintf(f, "\t%s", cfgname[i]);
	fputc('\n', f);
	for (r = rows; r < rows + nrow; r++) {
		if (!strcmp(r->better, "info"))
			continue;
		fprintf(f, "%s:%s", r->workload, r->metric);
		for (i = 1; i < ncfg; i++)
			fprintf(f, "\t%.3f", r->c[i].n ? r->c[i].delta : 0);
		fputc('\n', f);
	}
	out_close(&o);
	for (i = 1; i < ncfg; i++) {
		snprintf(name, sizeof(name), "delta-%s.dat", cfgname[i]);
		f = out_open(&o, name);
		fprintf(f, "# row\tdelta %% (positive = better than %s)\tsignificant\tMDE %%\n",
			cfgname[0]);
		for (r = rows; r < rows + nrow; r++)
			if (strcmp(r->better, "info") && r->c[i].n)
				fprintf(f, "%s:%s\t%.3f\t%d\t%.3f\n", r->workload, r->metric,
					r->c[i].delta, r->c[i].sig, r->c[i].mde);
		out_close(&o);
	}
}

/* Parse "hist_ns": [[low, count], ...] of one wakelat JSON file into h. */
static int read_hist(const char *path, double *low, double *cnt, int max)
{
	char *buf = NULL, *p, *end;
	size_t cap = 0;
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read %s: %s", path, strerror(errno));
	if (getdelim(&buf, &cap, 0, f) < 0)
		die("cannot read %s", path);
	fclose(f);
	p = strstr(buf, "\"hist_ns\"");
	if (!p || !(p = strchr(p, '[')))
		die("%s: no hist_ns array", path);
	for (p++; n < max; n++) {
		while (*p && *p != '[' && *p != ']')
			p++;
		if (*p != '[')
			break;
		low[n] = strtod(p + 1, &end);
		p = strchr(end, ',');
		if (!p)
			die("%s: malformed hist_ns", path);
		cnt[n] = strtod(p + 1, &end);
		p = strchr(end, ']');
		if (!p)
			die("%s: malformed hist_ns", path);
		p++;
	}
	free(buf);
	return n;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* cdf-<config>.dat: the merged wakeup-latency distribution of all iterations. */
static void write_cdfs(void)
{
	static double low[4096], cnt[4096], keys[4096], tot[4096];
	char pat[PATH_MAX], name[NAMELEN + 16];
	int i, j, k, n, nk;
	glob_t g;

	for (i = 0; i < ncfg; i++) {
		struct out o;
		double sum = 0, run = 0;
		FILE *f;

		snprintf(pat, sizeof(pat), "%s/wakelat/%s.*.json", dir, cfgname[i]);
		if (glob(pat, 0, NULL, &g))
			continue;
		nk = 0;
		for (j = 0; j < (int)g.gl_pathc; j++) {
			n = read_hist(g.gl_pathv[j], low, cnt, 4096);
			for (k = 0; k < n; k++) {
				int q;

				for (q = 0; q < nk && keys[q] != low[k]; q++)
					;
				if (q == nk) {
					if (nk == 4096)
						die("too many histogram buckets");
					keys[nk] = low[k];
					tot[nk++] = 0;
				}
				tot[q] += cnt[k];
				sum += cnt[k];
			}
		}
		globfree(&g);
		/* Sort the buckets by their lower bound, keeping counts alongside. */
		for (j = 0; j < nk; j++)
			low[j] = keys[j];
		qsort(low, nk, sizeof(low[0]), cmp_dbl);
		snprintf(name, sizeof(name), "cdf-%s.dat", cfgname[i]);
		f = out_open(&o, name);
		fprintf(f, "# wakeup latency (us)\tfraction <= (config %s)\n", cfgname[i]);
		for (j = 0; j < nk; j++) {
			for (k = 0; keys[k] != low[j]; k++)
				;
			run += tot[k];
			fprintf(f, "%.3f\t%.6f\n", low[j] / 1000, sum ? run / sum : 0);
		}
		out_close(&o);
	}
}

static int flat(const char *path)
{
	char *buf = NULL, *p, *key, *end;
	size_t cap = 0;
	double v;
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read %s: %s", path, strerror(errno));
	if (getdelim(&buf, &cap, 0, f) < 0 || !strchr(buf, '{'))
		die("%s: not a JSON object", path);
	fclose(f);
	for (p = strchr(buf, '{') + 1; (key = strchr(p, '"')); ) {
		key++;
		p = strchr(key, '"');
		if (!p)
			die("%s: unterminated key", path);
		*p++ = 0;
		while (isspace((unsigned char)*p) || *p == ':')
			p++;
		if (*p == '[') {		/* arrays are not flat keys: skip */
			int depth = 0;

			do {
				depth += (*p == '[') - (*p == ']');
				p++;
			} while (*p && depth);
			continue;
		}
		v = strtod(p, &end);
		if (end != p)
			printf("%s\t%.10g\n", key, v);
		p = end;
	}
	free(buf);
	return 0;
}

/*
 * One markdown table: a row per workload metric, the baseline's mean, then
 * per variant its mean over the baseline's, bold when significant, with
 * the minimum detectable effect and, with r, the paired test.
 */
static void write_columns(void)
{
	const struct row *r;
	int i;

	printf("| workload | metric | %s |", cfgname[0]);
	for (i = 1; i < ncfg; i++)
		printf(" %s / %s (MDE) |", cfgname[i], cfgname[0]);
	printf("\n|---|---|---:|");
	for (i = 1; i < ncfg; i++)
		printf("---:|");
	putchar('\n');
	for (r = rows; r < rows + nrow; r++) {
		const struct cell *b = &r->c[0];

		printf("| %s | %s (%s%s) | %s |", r->workload, r->metric, r->unit,
		       !strcmp(r->better, "info") ? "" : !strcmp(r->better, "lo") ?
		       ", lower is better" : ", higher is better", b->n ? num(b->mean) : "-");
		for (i = 1; i < ncfg; i++) {
			const struct cell *c = &r->c[i];

			if (!c->n || !b->n || !b->mean)
				printf(" - |");
			else
				printf(" %s%.3f%s (%.1f%%%s) |", c->sig ? "**" : "", c->mean / b->mean,
				       c->sig ? "**" : "", c->mde, c->paired ? " r" : "");
		}
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "flat"))
		return flat(argv[2]);
	if (argc != 3 || (strcmp(argv[1], "report") && strcmp(argv[1], "columns"))) {
		fprintf(stderr, "usage: benchstat flat FILE.json | benchstat report DIR | "
			"benchstat columns DIR\n");
		return 2;
	}
	dir = argv[2];
	read_inputs();
	compute();
	if (!strcmp(argv[1], "columns")) {
		write_columns();
		return 0;
	}
	write_txt();
	write_md();
	write_json();
	write_delta();
	write_cdfs();
	return 0;
}
