#!/usr/bin/perl
# btconv.pl - rewrite little-endian blktrace v7 files for the tests:
#   perl btconv.pl [-swap] [-v8] IN OUT
#   -swap  write every header field big-endian (a trace taken on a
#          host of the other byte order)
#   -v8    write each 48-byte struct blk_io_trace as a 64-byte
#          struct blk_io_trace2 (version 8: pid before a 64-bit action,
#          12 pad bytes)
# Payloads are copied unchanged (remap payloads are big-endian in
# either byte order, see docs/FORMATS.md).
use strict;
use warnings;

my ($swap, $v8) = (0, 0);
while (@ARGV && $ARGV[0] =~ /^-/) {
	my $o = shift;
	if ($o eq '-swap') { $swap = 1 }
	elsif ($o eq '-v8') { $v8 = 1 }
	else { die "btconv.pl: unknown option $o\n" }
}
@ARGV == 2 or die "usage: btconv.pl [-swap] [-v8] IN OUT\n";
open(my $in, '<:raw', $ARGV[0]) or die "btconv.pl: $ARGV[0]: $!\n";
open(my $out, '>:raw', $ARGV[1]) or die "btconv.pl: $ARGV[1]: $!\n";
my $d = do { local $/; <$in> } // '';
my $e = $swap ? '>' : '<';
for (my $o = 0; $o < length $d;) {
	die "btconv.pl: $ARGV[0]: truncated record at byte $o\n" if $o + 48 > length $d;
	my ($magic, $seq, $time, $sector, $bytes, $action, $pid, $dev, $cpu, $err, $pdu) =
		unpack('L< L< Q< Q< L< L< L< L< L< S< S<', substr($d, $o, 48));
	die sprintf("btconv.pl: %s: byte %d: not a little-endian v7 record (magic 0x%08x)\n",
		$ARGV[0], $o, $magic) if $magic != 0x65617407;
	my $hdr = $v8
		? pack("L$e L$e Q$e Q$e L$e L$e Q$e L$e L$e S$e S$e x12",
			0x65617408, $seq, $time, $sector, $bytes, $pid, $action, $dev, $cpu, $err, $pdu)
		: pack("L$e L$e Q$e Q$e L$e L$e L$e L$e L$e S$e S$e",
			$magic, $seq, $time, $sector, $bytes, $action, $pid, $dev, $cpu, $err, $pdu);
	print $out $hdr, substr($d, $o + 48, $pdu);
	$o += 48 + $pdu;
}
close($out) or die "btconv.pl: $ARGV[1]: $!\n";
