#!/bin/sh
# t0471-timing-host-link: the host side of the device in time
# (--device ...,host_us=T,host_mbps=B): a command's own time, and the
# data of writes (in) and reads (out) over a full-duplex link of B MB/s
# each way.
# - QD 1 writes on one die: each takes host_us + bytes/B + tPROG, exactly.
# - Reads at QD 64 over 64 dies bound by the link: B MB/s.
# - Poisson writes into a write cache that never fills: the link is
#   M/D/1, its mean within 2%; Poisson reads over 64 striped dies: each
#   die's M/D/1 wait, tR, then the link's M/D/1, within 2%.
. "$(dirname "$0")/lib.sh"
S="$BIN/ftlsim"
G="$BIN/tracegen"

t_expect_success 'QD 1 writes on one die: host_us + bytes / B + tPROG each, exactly; the link busy bytes / B' '
	"$G" -q -p seq -n 65536 -w 1000 -o bin >s.ev &&
	"$S" -q --device femu,channels=1,dies=1,host_us=10,host_mbps=400 --qd 1 --op 3 --logical-pages 65536 s.ev >w.json 2>/dev/null &&
	jq -e ".timing.latency_us.write | .mean == 220.24 and .max == 220.24" w.json &&
	jq -e ".timing.host_link_in_s == 0.01024 and .timing.host_link_out_s == 0 and .timing.device.host_mbps == 400" w.json
'

t_expect_success 'reads at QD 64 over 64 dies, the link at 500 MB/s: 500 MB/s, the link busy the whole window' '
	"$G" -q -p uniform --read-prob 1 -n 65536 -w 100000 -o bin >rr.ev &&
	"$S" -q --device femu,host_mbps=500 --qd 64 --op 1 --logical-pages 65536 --precondition seq rr.ev >r.json 2>/dev/null &&
	jq -e "((.timing.mb_per_s - 500) / 500 | fabs) < 0.001 and (.timing.host_link_out_s / .timing.measured_s) > 0.999" r.json &&
	"$S" -q --device femu --qd 64 --op 1 --logical-pages 65536 --precondition seq rr.ev >r0.json 2>/dev/null &&
	jq -e ".timing.mb_per_s > 2000" r0.json
'

t_expect_success 'Poisson writes into a cache that never fills: the link is M/D/1 (4 KiB at 100 MB/s, rho 0.49), within 2%' '
	"$G" -q -p uniform -n 65536 -w 100000 --rate 12000 -o bin >pw.ev &&
	"$S" -q --device femu,host_mbps=100,cache_mib=256 --op 3 pw.ev >p.json 2>/dev/null &&
	jq -e ".timing.cache.requests_waited == 0 and (40.96 as \$x | (12000e-6 * \$x) as \$rho |
		(\$x + \$rho * \$x / (2 * (1 - \$rho))) as \$w | ((.timing.latency_us.write.mean - \$w) / \$w | fabs) < 0.02)" p.json || {
		jq .timing.latency_us.write p.json; return 1; }
'

t_expect_success 'Poisson reads over 64 striped dies then the link: each die'"'"'s M/D/1, then the link'"'"'s, within 2%' '
	"$G" -q -p uniform --read-prob 1 -n 65536 -w 100000 --rate 12000 -o bin >pr.ev &&
	"$S" -q --device femu,host_mbps=100 --op 1 --logical-pages 65536 --precondition seq pr.ev >q.json 2>/dev/null &&
	jq -e "(40.96 as \$x | (12000e-6 * \$x) as \$rho | (12000e-6 / 64 * 40) as \$rd |
		(40 + \$rd * 40 / (2 * (1 - \$rd)) + \$x + \$rho * \$x / (2 * (1 - \$rho)))) as \$w |
		((.timing.latency_us.read.mean - \$w) / \$w | fabs) < 0.02" q.json || {
		jq .timing.latency_us.read q.json; return 1; }
'

t_expect_success 'host_us=0,host_mbps=0 is no host time: the same latencies as without the keys' '
	"$S" -q --device femu,host_us=0,host_mbps=0 --op 3 pw.ev >z.json 2>/dev/null &&
	"$S" -q --device femu --op 3 pw.ev >n.json 2>/dev/null &&
	jq -e --slurpfile n n.json ".timing.latency_us == \$n[0].timing.latency_us" z.json
'

t_expect_success 'the link'"'"'s memory: the dry run'"'"'s model_bytes is the run'"'"'s' '
	"$S" -q --device femu,host_mbps=100 --op 3 --dry-run pw.ev | jq .memory.model_bytes >d &&
	"$S" -q --device femu,host_mbps=100 --op 3 pw.ev 2>/dev/null | jq .memory.model_bytes >r &&
	cmp d r
'

t_expect_success 'host_mbps or host_us negative or not a number: a usage error naming it' '
	t_err 2 "host_mbps=-1" "$S" --device femu,host_mbps=-1 s.ev &&
	t_err 2 "host_us=fast" "$S" --device femu,host_us=fast s.ev
'

t_done
