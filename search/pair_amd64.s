//go:build !purego

#include "textflag.h"

// func indexPairAVX2(h []byte, d int, a1, a2, b1, b2 byte) int
//
// The lowest i with h[i] in {a1, a2} and h[i+d] in {b1, b2}, looked for 32 positions at a
// time while i+d+32 <= len(h); or, when there is none, -1-n where n is the number of
// positions checked (the caller checks the rest).
//
// Bytes go into vector registers by VEX-encoded instructions only (VMOVD, not MOVQ): a
// legacy SSE instruction after the first AVX one, with the upper halves of the registers
// dirty, cost 300 ns a call on the CPUs measured, which a scan that stops often pays on
// every stop (BenchmarkPairScanStops).
TEXT ·indexPairAVX2(SB), NOSPLIT, $0-48
	MOVQ	h_base+0(FP), SI
	MOVQ	h_len+8(FP), BX
	MOVQ	d+24(FP), DX
	MOVBLZX	a1+32(FP), R8
	MOVBLZX	a2+33(FP), R9
	MOVBLZX	b1+34(FP), R10
	MOVBLZX	b2+35(FP), R11
	XORQ	AX, AX
	MOVQ	BX, CX
	SUBQ	DX, CX
	SUBQ	$32, CX // the last start of a block of 32 positions
	JL	none
	VMOVD	R8, X1
	VPBROADCASTB	X1, Y1
	VMOVD	R9, X2
	VPBROADCASTB	X2, Y2
	VMOVD	R10, X3
	VPBROADCASTB	X3, Y3
	VMOVD	R11, X4
	VPBROADCASTB	X4, Y4
	LEAQ	(SI)(DX*1), DI

loop:
	VMOVDQU	(SI)(AX*1), Y5
	VMOVDQU	(DI)(AX*1), Y6
	VPCMPEQB	Y1, Y5, Y7
	VPCMPEQB	Y2, Y5, Y8
	VPOR	Y7, Y8, Y7
	VPCMPEQB	Y3, Y6, Y8
	VPCMPEQB	Y4, Y6, Y9
	VPOR	Y8, Y9, Y8
	VPAND	Y7, Y8, Y7
	VPMOVMSKB	Y7, R12
	TESTL	R12, R12
	JNZ	found
	ADDQ	$32, AX
	CMPQ	AX, CX
	JLE	loop
	VZEROUPPER

none:
	NOTQ	AX
	MOVQ	AX, ret+40(FP)
	RET

found:
	BSFL	R12, R12
	ADDQ	R12, AX
	VZEROUPPER
	MOVQ	AX, ret+40(FP)
	RET
