# plots/labels.sh - axis titles for the columns of ftlsim --results and
# of ftlsweep merge's CSV: the column's meaning and its unit
# (docs/OUTPUTS.md), the column's own name for the others. The one
# table of them: ftlplot (--results) and ftlsweep plot read this file
# (POSIX sh, sourced; installed in share/ftlkit beside the gnuplot
# scripts).
#   label COLUMN   prints the title (in a subshell: sets no variable)
label() (
	case $1 in
	wa_total) echo "write amplification" ;;
	wa_measured) echo "write amplification (measured window)" ;;
	op | params.op) echo "over-provisioning (OP)" ;;
	spare_factor | spare-factor | params.spare_factor) echo "spare factor" ;;
	pages-per-segment | params.pages_per_segment | pages_per_segment) echo "pages per segment (b)" ;;
	logical-pages | params.logical_pages | logical_pages) echo "logical pages (U)" ;;
	physical_pages | params.physical_pages) echo "physical pages (T)" ;;
	qd | params.qd) echo "queue depth" ;;
	time-scale) echo "time scale (x the trace's times)" ;;
	gc_pages_copied) echo "pages copied by GC" ;;
	host_pages_written) echo "host page writes" ;;
	flash_pages_written) echo "flash page writes" ;;
	segments_cleaned) echo "segments cleaned" ;;
	write_cost | measured.write_cost) echo "write cost" ;;
	host_lfs.wa_host) echo "host log's write amplification" ;;
	host_lfs.wa_stacked) echo "stacked write amplification (host log x device)" ;;
	victim_utilization_mean | measured.victim_utilization_mean) echo "mean utilization of the segments cleaned" ;;
	timing.latency_us.*.*)
		k=${1#timing.latency_us.} s=${k#*.} k=${k%%.*}
		case $s in
		mean) echo "$k latency, mean (us)" ;;
		count) echo "$k requests measured" ;;
		max) echo "$k latency, max (us)" ;;
		*) echo "$k latency, $(echo "$s" | tr _ .) (us)" ;;
		esac ;;
	timing.iops | timing.steady_state.iops) echo "IOPS" ;;
	timing.mb_per_s | timing.steady_state.mb_per_s) echo "MB/s" ;;
	timing.gc_wait_s) echo "time requests waited on GC (s)" ;;
	timing.unit_busy_share) echo "dies' busy share" ;;
	timing.gc_share_of_busy) echo "GC's share of the dies' busy time" ;;
	timing.gc_idle_share) echo "share of GC work in idle time" ;;
	*) echo "$1" ;;
	esac
)
