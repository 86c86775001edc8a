#!/bin/sh
# Remakes the bad-input files of the disksim, mqsim, fio, cloudphysics
# and ev text readers (tests/t0230-readers-more.sh; the ev ones also
# tests/t0494-fdp.sh): each is base.EXT
# with one bad line inserted after its line AT (so the bad record is
# line AT+1) and, under --skip-bad, gives base.EXT's events.
set -eu
cd "$(dirname "$0")"
mk() { # DIR EXT AT NAME 'bad line'
	d=$1/bad
	{ head -n "$3" "$d/base.$2"; printf '%s\n' "$5"; tail -n +"$(($3 + 1))" "$d/base.$2"; } >"$d/$4.$2"
}
printf '0.000000 0 17687528 4 0\n0.021500 0 23154984 1 0\n0.051200 0 10836088 8 1\n593.685700 1 6177920 80 0\n' >disksim/bad/base.txt
mk disksim txt 1 fields '0.030000 0 100 8'
mk disksim txt 1 time '0.0x3 0 100 8 0'
mk disksim txt 1 negtime '-0.5 0 100 8 0'
mk disksim txt 1 flags '0.030000 0 100 8 zz'
mk disksim txt 1 zerosize '0.030000 0 100 0 0'
mk disksim txt 1 past63 '0.030000 0 18014398509481984 8 0'
mk disksim txt 1 device '0.030000 4294967296 100 8 0'
printf '938944000 13 93230992 32 0\n939855000 13 213913104 16 0\n941044000 13 305785200 16 1\n941495000 13 247725136 16 0\n' >mqsim/bad/base.txt
mk mqsim txt 1 fields '940000000 13 100 16 0 7'
mk mqsim txt 1 type '940000000 13 100 16 2'
mk mqsim txt 1 time '94000000.5 13 100 16 0'
mk mqsim txt 1 zerosize '940000000 13 100 0 0'
mk mqsim txt 1 past63 '940000000 13 18014398509481984 16 0'
mk mqsim txt 1 bigsize '940000000 13 0 8388608 0'
printf 'fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb open\n149 /dev/sdb write 61440 4096\n50924 /dev/sdb read 774144 4096\n60000 /dev/sdb trim 0 65536\n70000 /dev/sdb sync 0 0\n1000141 /dev/sdb close\n' >fio/bad/base.log
mk fio log 4 action '55000 /dev/sdb scribble 0 4096'
mk fio log 4 fields '55000 /dev/sdb write 0'
mk fio log 4 nofile '55000 /dev/sdc write 0 4096'
mk fio log 4 offset '55000 /dev/sdb write -4096 4096'
mk fio log 4 zerolen '55000 /dev/sdb write 4096 0'
mk fio log 4 past63 '55000 /dev/sdb write 9223372036854775808 4096'
mk fio log 4 time '5.5 /dev/sdb write 0 4096'
mk fio log 4 fileact '55000 /dev/sdb reopen'
printf 'fio version 1 iolog\n/dev/sdb add\n' >fio/bad/version1.log
printf '' >fio/bad/empty.log
printf 'fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb write 0 4096\n/dev/sdb wait 250000 0\n/dev/sdb read 4096 8192\n/dev/sdb close\n' >fio/v2.log
printf 'version,time,op,size,lbn\n1,5633898,2a,2048,17687528\n1,5633898,28,512,23154984\n1,5633899,0x2A,4096,10836088\n' >cloudphysics/bad/base.csv
mk cloudphysics csv 2 version '3,5633898,2a,4096,100'
mk cloudphysics csv 2 opcode '1,5633898,0x1ff,4096,100'
mk cloudphysics csv 2 time '1,5633898.x,2a,4096,100'
mk cloudphysics csv 2 zerosize '1,5633898,2a,0,100'
mk cloudphysics csv 2 past63 '1,5633898,2a,4096,18014398509481984'
mk cloudphysics csv 2 fields '1,5633898,2a,4096'
# ev text: a first line whose optional fields are bad is still detected
# as ev, so the reader names the file, line and field
mkdir -p ev/bad
printf '0 W 0 4096 0\n1000 W 4096 8192 0 0 2\n2000 D 0 4096 0\n' >ev/bad/base.txt
mk ev txt 0 stream '0 W 8192 4096 0 0 70000'
mk ev txt 0 temp '0 W 8192 4096 0 300'
mk ev txt 0 hint '0 W 8192 4096 0 0 2 9'
