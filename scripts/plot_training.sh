#!/bin/sh
# Learning curves of a `heurnet train --log LOG.csv` run with gnuplot:
# training and validation loss (log scale) on the left axis, validation MAE
# on the right, and the share of exact / over-estimated predictions below.
# usage: scripts/plot_training.sh LOG.csv OUT.png [TITLE]
set -eu
if [ $# -lt 2 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    echo "usage: $0 LOG.csv OUT.png [TITLE]" >&2
    [ $# -ge 1 ] && [ "$1" = "--help" -o "$1" = "-h" ] && exit 0
    exit 2
fi
log=$1
out=$2
title=${3:-$(basename "$log")}
[ -r "$log" ] || { echo "plot_training.sh: $log: cannot read" >&2; exit 1; }
head -1 "$log" | grep -q '^epoch,train_loss,val_loss,val_mae,val_exact,val_over' ||
    { echo "plot_training.sh: $log: not a heurnet train log (header epoch,train_loss,...)" >&2; exit 1; }
[ "$(wc -l <"$log")" -ge 2 ] || { echo "plot_training.sh: $log: no epochs yet" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "plot_training.sh: gnuplot is not installed" >&2; exit 1; }
gnuplot <<GP
set terminal pngcairo noenhanced size 900,700
set output "$out"
set datafile separator ","
set key autotitle columnhead
set multiplot layout 2,1 title "$title"
set xlabel "epoch"
set ylabel "loss (target units^2)"
set logscale y
set y2label "validation MAE"
set y2tics
set ytics nomirror
set grid
plot "$log" using 1:2 with lines lw 2 title "train loss", \
     "" using 1:3 with lines lw 2 title "val loss", \
     "" using 1:4 axes x1y2 with lines lw 2 dt 2 title "val MAE"
unset logscale y
unset y2label
unset y2tics
set ytics mirror
set ylabel "share of validation rows"
set yrange [0:1]
plot "$log" using 1:5 with lines lw 2 title "exact after rounding", \
     "" using 1:6 with lines lw 2 title "over-estimated"
unset multiplot
GP
echo "wrote $out"
