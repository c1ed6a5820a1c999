//go:build !purego

#include "textflag.h"

// func indexSeqAVX2(h []byte, t *[maxSeq * 64]byte) int
//
// For each block of 32 positions, the four loads at offsets 0 to 3 are classified by
// nibble lookups (VPSHUFB) in their class's tables; a position is a hit when all four of
// its bytes are in their classes. Constants go into registers by VEX instructions only
// (see pair_amd64.s: an SSE instruction after AVX ones costs 300 ns a call).
TEXT ·indexSeqAVX2(SB), NOSPLIT, $0-40
	MOVQ	h_base+0(FP), SI
	MOVQ	h_len+8(FP), BX
	MOVQ	t+24(FP), DI
	XORQ	AX, AX
	MOVQ	BX, CX
	SUBQ	$35, CX // the last start of a block: its last load ends at i+3+32
	JL	none
	MOVL	$0x0f, DX
	VMOVD	DX, X15
	VPBROADCASTB	X15, Y15
	VPXOR	Y14, Y14, Y14
	VMOVDQU	0(DI), Y0
	VMOVDQU	32(DI), Y1
	VMOVDQU	64(DI), Y2
	VMOVDQU	96(DI), Y3
	VMOVDQU	128(DI), Y4
	VMOVDQU	160(DI), Y5
	VMOVDQU	192(DI), Y6
	VMOVDQU	224(DI), Y7

loop:
	// Class 0: Y13 gets 0xff where the byte is not in it.
	VMOVDQU	(SI)(AX*1), Y8
	VPSRLW	$4, Y8, Y9
	VPAND	Y15, Y8, Y8
	VPAND	Y15, Y9, Y9
	VPSHUFB	Y8, Y0, Y8
	VPSHUFB	Y9, Y1, Y9
	VPAND	Y8, Y9, Y13
	VPCMPEQB	Y14, Y13, Y13

	VMOVDQU	1(SI)(AX*1), Y8
	VPSRLW	$4, Y8, Y9
	VPAND	Y15, Y8, Y8
	VPAND	Y15, Y9, Y9
	VPSHUFB	Y8, Y2, Y8
	VPSHUFB	Y9, Y3, Y9
	VPAND	Y8, Y9, Y10
	VPCMPEQB	Y14, Y10, Y10
	VPOR	Y10, Y13, Y13

	VMOVDQU	2(SI)(AX*1), Y8
	VPSRLW	$4, Y8, Y9
	VPAND	Y15, Y8, Y8
	VPAND	Y15, Y9, Y9
	VPSHUFB	Y8, Y4, Y8
	VPSHUFB	Y9, Y5, Y9
	VPAND	Y8, Y9, Y11
	VPCMPEQB	Y14, Y11, Y11

	VMOVDQU	3(SI)(AX*1), Y8
	VPSRLW	$4, Y8, Y9
	VPAND	Y15, Y8, Y8
	VPAND	Y15, Y9, Y9
	VPSHUFB	Y8, Y6, Y8
	VPSHUFB	Y9, Y7, Y9
	VPAND	Y8, Y9, Y12
	VPCMPEQB	Y14, Y12, Y12
	VPOR	Y11, Y12, Y12
	VPOR	Y12, Y13, Y13

	VPMOVMSKB	Y13, DX
	NOTL	DX
	TESTL	DX, DX
	JNZ	found
	ADDQ	$32, AX
	CMPQ	AX, CX
	JLE	loop
	VZEROUPPER

none:
	NOTQ	AX
	MOVQ	AX, ret+32(FP)
	RET

found:
	BSFL	DX, DX
	ADDQ	DX, AX
	VZEROUPPER
	MOVQ	AX, ret+32(FP)
	RET
