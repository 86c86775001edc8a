#!/usr/bin/perl
# mkbad.pl - write the hand-made blktrace files of tests/t0200-blktrace.sh
# into the current directory (they are committed; this documents them
# and remakes them): perl mkbad.pl
# Records are little-endian v7 struct blk_io_trace (48 bytes + pdu).
use strict;
use warnings;

my $MAGIC = 0x65617407;
my $DEV = (8 << 20) | 16; # 8,16
# action = __BLK_TA_* | BLK_TC_* << 16
my %TC = (READ => 1, WRITE => 2, FLUSH => 4, SYNC => 8, QUEUE => 16, ISSUE => 64,
	COMPLETE => 128, FS => 256, PC => 512, NOTIFY => 1024, DISCARD => 8192, FUA => 32768);
sub act { my ($ta, @tc) = @_; my $c = 0; $c |= $TC{$_} for @tc; return $ta | ($c << 16) }

# rec(time, sector, bytes, action, [pdu], [magic], [pdu_len])
sub rec {
	my ($t, $sec, $bytes, $act, $pdu, $magic, $plen) = @_;
	$pdu //= '';
	$magic //= $MAGIC;
	$plen //= length $pdu;
	return pack('L< L< Q< Q< L< L< L< L< L< S< S<',
		$magic, 1, $t, $sec, $bytes, $act, 4242, $DEV, 0, 0, $plen) . $pdu;
}
sub be_rec {
	my ($t, $sec, $bytes, $act) = @_;
	return pack('L> L> Q> Q> L> L> L> L> L> S> S>',
		$MAGIC, 1, $t, $sec, $bytes, $act, 4242, $DEV, 0, 0, 0);
}
sub wr { my ($name, @parts) = @_; open(my $f, '>:raw', $name) or die "$name: $!\n"; print $f @parts; close $f }

my $D = act(7, qw(WRITE ISSUE FS));
sub good { my ($t) = @_; rec($t, 2048 + $t, 4096, $D) }

# Bad input: each breaks one rule at byte 48 (after one good record).
wr('trunc-header.blktrace.0', good(1), substr(good(2), 0, 20));
wr('short.blktrace.0', "\x07\x74");
wr('bad-magic.blktrace.0', good(1), rec(2, 8, 4096, $D, '', 0x12345607));
wr('bad-version.blktrace.0', good(1), rec(2, 8, 4096, $D, '', 0x65617409));
wr('pdu-past-end.blktrace.0', good(1), rec(2, 8, 4096, $D, 'x' x 10, undef, 100));
wr('sector-range.blktrace.0', good(1), rec(2, 1 << 60, 4096, $D), good(3));
wr('odd-length.blktrace.0', good(1), rec(2, 8, 1000, $D), good(3));
wr('time-range.blktrace.0', good(1), rec((1 << 63) + 5, 8, 4096, $D));
wr('byte-order.blktrace.0', good(1), be_rec(2, 8, 4096, $D));
wr('missing-cpu.blktrace.0', good(1));
wr('missing-cpu.blktrace.2', good(2));
wr('empty.blktrace.0');
wr('empty.blktrace.1');
# Several bad records over two CPUs: with --skip-bad 3 skipped, 5 kept
# (the record after the bad magic is read: the rest of the damaged
# record's header frames it).
wr('multi.blktrace.0', good(10), rec(20, 1 << 60, 4096, $D), good(30),
	rec(40, 8, 1000, $D), good(50));
wr('multi.blktrace.1', good(15), rec(25, 8, 4096, $D, '', 0xdeadbeef), good(35));

# Record classes (not bad): what counts at each action.
my $cg = pack('L< L<', 77, 1); # cgroup id payload
wr('classes.blktrace.0',
	rec(1, 0, 16, act(1, 'NOTIFY'), 'ts-notify-as-Q!!'),            # notify, low bits = QUEUE
	rec(2, 0, 16, act(0, 'NOTIFY'), "kworker\0" x 2),                 # process name
	rec(3, 100, 4096, act(1, qw(WRITE QUEUE))),                      # Q W
	rec(4, 100, 4096, act(15, qw(WRITE QUEUE)), "\0" x 16),          # A remap: never an event
	rec(5, 100, 4096, act(7, qw(WRITE ISSUE FS))),                   # D W
	rec(6, 200, 8192, act(7 | 256, qw(READ ISSUE FS)), $cg),         # D R with cgroup bit
	rec(7, 300, 65536, act(7, qw(WRITE ISSUE FS DISCARD))),          # D discard
	rec(8, 999, 0, act(7, qw(READ FLUSH ISSUE FS))),                 # D FN: flush, offset 0
	rec(9, 400, 4096, act(7, qw(WRITE FLUSH FUA SYNC ISSUE FS))),    # D FWFS with data: write
	rec(10, 500, 0, act(7, qw(WRITE ISSUE FS))),                     # zero-length W: dropped
	rec(11, 0, 0, act(7, qw(READ ISSUE FS))),                        # D N: dropped
	rec(12, 0, 512, act(7, qw(READ ISSUE PC)), "\x12" . "\0" x 5),  # SCSI passthrough: dropped
	rec(13, 100, 4096, act(8, qw(WRITE COMPLETE FS))),               # C W
	rec(14, 500, 0, act(8, qw(WRITE COMPLETE FS))));                 # C W zero-length: dropped
