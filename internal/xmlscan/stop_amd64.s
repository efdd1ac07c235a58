//go:build !purego

#include "textflag.h"

DATA stopSpace<>+0(SB)/8, $0x2020202020202020
DATA stopSpace<>+8(SB)/8, $0x2020202020202020
GLOBL stopSpace<>(SB), RODATA|NOPTR, $16

// STOPMASK sets AX to one bit for each byte of X0 that stopAt stops at,
// from the lowest: the bytes equal to one of the set's three (X8, X9,
// X10), and those below 0x20 or from 0x80, which a signed compare finds
// together as the bytes less than 0x20 (X11). SSE2 only, which every amd64
// has.
#define STOPMASK \
	MOVO     X0, X1 \
	PCMPEQB  X8, X1 \
	MOVO     X0, X2 \
	PCMPEQB  X9, X2 \
	MOVO     X0, X3 \
	PCMPEQB  X10, X3 \
	MOVO     X11, X4 \
	PCMPGTB  X0, X4 \
	POR      X1, X2 \
	POR      X3, X4 \
	POR      X2, X4 \
	PMOVMSKB X4, AX

// func stopAt(w []byte, i, n int, s *stopSet) int
TEXT ·stopAt(SB), NOSPLIT, $0-56
	MOVQ w_base+0(FP), SI
	MOVQ w_len+8(FP), BX
	MOVQ i+24(FP), CX
	MOVQ n+32(FP), DX
	MOVQ s+40(FP), DI
	CMPQ BX, $16
	JB   bytewise
	MOVOU 0(DI), X8
	MOVOU 16(DI), X9
	MOVOU 32(DI), X10
	MOVOU stopSpace<>(SB), X11

blocks:
	// A whole block of w from CX, while there is one.
	LEAQ  16(CX), R8
	CMPQ  R8, BX
	JA    last
	MOVOU (SI)(CX*1), X0
	STOPMASK
	TESTL AX, AX
	JNZ   found
	MOVQ  R8, CX
	CMPQ  CX, DX
	JB    blocks
	MOVQ  DX, ret+48(FP)
	RET

found:
	BSFL AX, AX
	ADDQ CX, AX
	MOVQ AX, ret+48(FP)
	RET

last:
	// Fewer than sixteen bytes of w are left from CX: the last sixteen of
	// w are read, and the bits of those before CX shifted off.
	LEAQ  -16(BX), R8
	MOVOU (SI)(R8*1), X0
	STOPMASK
	MOVQ  CX, R9
	SUBQ  R8, CX
	SHRL  CX, AX
	TESTL AX, AX
	JZ    none
	BSFL  AX, AX
	ADDQ  R9, AX
	MOVQ  AX, ret+48(FP)
	RET

none:
	MOVQ BX, ret+48(FP)
	RET

bytewise:
	// w is shorter than a block: byte by byte to n.
	CMPQ    CX, DX
	JAE     end
	MOVBLZX (SI)(CX*1), AX
	CMPB    AL, $0x20
	JB      stop
	CMPB    AL, $0x80
	JAE     stop
	CMPB    AL, 0(DI)
	JEQ     stop
	CMPB    AL, 16(DI)
	JEQ     stop
	CMPB    AL, 32(DI)
	JEQ     stop
	INCQ    CX
	JMP     bytewise

stop:
	MOVQ CX, ret+48(FP)
	RET

end:
	MOVQ DX, ret+48(FP)
	RET
