# SPDX-License-Identifier: Apache-2.0
# The picture of bench_noop_report: noop time against N, log-log, one line per tool.
#   gnuplot -e "data='FILE.dat'; output='FILE.png'" bench_noop_report.gp
# FILE.dat: N then one column of seconds per tool (ours, floor, cf-agent, puppet), "-" when not measured.
set terminal pngcairo size 900,600 font "sans,11"
set output output
set datafile missing "-"
set logscale xy
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key bottom right box opaque
set title "Noop of N stable file resources, whole process (median)"
set xlabel "N (file resources)"
set ylabel "seconds"
set format x "%.0s%c"
set xrange [70:70000]
plot data using 1:2 title "ccm-backend apply --noop" with linespoints lw 2 pt 7 lc rgb "#1f77b4", \
     data using 1:3 title "floor: sha256sum of the files" with linespoints lw 2 pt 5 lc rgb "#7f7f7f", \
     data using 1:4 title "CFEngine cf-agent -K -n" with linespoints lw 2 pt 9 lc rgb "#2ca02c", \
     data using 1:5 title "Puppet apply --noop" with linespoints lw 2 pt 11 lc rgb "#d62728"
