/*
 * test_blktrace.c - format detection of the blktrace and blkparse
 * readers: what their probes accept and refuse.
 */
#include <string.h>

#include "reader.h"
#include "th.h"
#include "trace.h"

static int probe(const char *name, const void *d, size_t n)
{
	return reader_find(name)->probe(d, n);
}

static const char *detect(const void *d, size_t n)
{
	const struct reader_ops *o = trace_detect(d, n);
	return o ? o->name : "none";
}

int main(void)
{
	static const unsigned char v7le[48] = {0x07, 0x74, 0x61, 0x65};
	static const unsigned char v7be[48] = {0x65, 0x61, 0x74, 0x07};
	static const unsigned char v8le[64] = {0x08, 0x74, 0x61, 0x65};
	static const unsigned char v6le[48] = {0x06, 0x74, 0x61, 0x65};
	static const unsigned char junk[48] = {0x07, 0x74, 0x61, 0x66};

	CHECK(reader_find("blktrace") && reader_find("blkparse"), "both readers are in the table");
	CHECK(probe("blktrace", v7le, sizeof(v7le)) == 100, "v7 little-endian magic: 100");
	CHECK(probe("blktrace", v7be, sizeof(v7be)) == 100, "v7 big-endian magic: 100");
	CHECK(probe("blktrace", v8le, sizeof(v8le)) == 100, "v8 magic: 100");
	CHECK(probe("blktrace", v6le, sizeof(v6le)) == 0, "unknown version 6: 0");
	CHECK(probe("blktrace", junk, sizeof(junk)) == 0, "near-miss magic: 0");
	CHECK(probe("blktrace", v7le, 3) == 0, "3 bytes are not enough");
	CHECK(!strcmp(detect(v7be, sizeof(v7be)), "blktrace"), "a big-endian file is detected");

	const char *line = "  8,16   5        2     0.000001850 18615  Q   R 1444645666 + 256 [java]\n";
	const char *remap = "  8,0    0        1     0.000000000   142  A  WS 486884616 + 8 <- (8,1) 486882568\n";
	const char *bom = "\xef\xbb\xbf  1,0   15        1     0.000000000 19146  C  WS 299456 + 1 [0]\r\n";
	const char *wide = "259,0    1    26103     0.473996105    33  F  WS 170434544 + 16 [(null)]\n";
	CHECK(probe("blkparse", line, strlen(line)) == 70, "a queue line: 70");
	CHECK(probe("blkparse", remap, strlen(remap)) == 70, "a remap line: 70");
	CHECK(probe("blkparse", bom, strlen(bom)) == 70, "BOM and CRLF: 70");
	CHECK(probe("blkparse", wide, strlen(wide)) == 70, "a 3-digit major (nvme): 70");
	CHECK(!strcmp(detect(line, strlen(line)), "blkparse"), "blkparse text is detected");
	const char *ev = "0 W 4096 4096 0\n";
	const char *csv = "128166372003061629,hm,0,Read,3154152960,32768,7940\n";
	const char *bad = "  8,16   5        2     0.000001850 18615  Z   R 1 + 8 [java]\n";
	CHECK(probe("blkparse", ev, strlen(ev)) == 0, "an ftlkit text event is not blkparse");
	CHECK(probe("blkparse", csv, strlen(csv)) == 0, "an MSR CSV line is not blkparse");
	CHECK(probe("blkparse", bad, strlen(bad)) == 0, "an unknown action is not blkparse");
	CHECK(probe("blkparse", "", 0) == 0, "no data: 0");
	return TH_DONE();
}
