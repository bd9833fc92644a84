// Every verifier rule of the vtile dialect, each with its message.
// RUN: mxq-opt %s -split-input-file -verify-diagnostics

#gm = #vtile.space<gm>
func.func @core_outside_kernel() -> index {
  // expected-error @+1 {{must be inside a func.func marked vtile.kernel}}
  %0 = vtile.core_id
  return %0 : index
}

// -----

func.func @ub_misaligned() attributes {vtile.kernel} {
  // expected-error @+1 {{offset 16 is not a 32-byte aligned UB address}}
  %0 = vtile.ub_buffer {offset = 16 : i64, bytes = 64 : i64}
  return
}

// -----

func.func @ub_too_big() attributes {vtile.kernel} {
  // expected-error @+1 {{needs UB bytes [0, 253984), but chip 950pr has 253952 bytes of UB}}
  %0 = vtile.ub_buffer {offset = 0 : i64, bytes = 253984 : i64}
  return
}

// -----

module attributes {vtile.chip = "a2"} {
  func.func @ub_too_big_a2() attributes {vtile.kernel} {
    // expected-error @+1 {{needs UB bytes [131072, 262144), but chip a2 has 196608 bytes of UB}}
    %0 = vtile.ub_buffer {offset = 131072 : i64, bytes = 131072 : i64}
    return
  }
}

// -----

module attributes {vtile.chip = "950pr,ub-bytes=4096"} {
  func.func @ub_overridden() attributes {vtile.kernel} {
    // expected-error @+1 {{needs UB bytes [0, 8192), but chip 950pr has 4096 bytes of UB}}
    %0 = vtile.ub_buffer {offset = 0 : i64, bytes = 8192 : i64}
    return
  }
}

// -----

func.func @ub_empty() attributes {vtile.kernel} {
  // expected-error @+1 {{has 0 bytes; a buffer needs some}}
  %0 = vtile.ub_buffer {offset = 0 : i64, bytes = 0 : i64}
  return
}

// -----

func.func @ub_overlap() attributes {vtile.kernel} {
  // expected-error @+1 {{UB bytes [0, 1024) overlap another buffer's [992, 2016)}}
  %0 = vtile.ub_buffer {offset = 0 : i64, bytes = 1024 : i64}
  %1 = vtile.ub_buffer {offset = 992 : i64, bytes = 1024 : i64}
  return
}

// -----

module attributes {vtile.chip = "tpu"} {
  func.func @bad_chip() attributes {vtile.kernel} {
    // expected-error @+1 {{cannot tell the chip: unknown chip 'tpu' (known: a2, 950pr, 950dt)}}
    %0 = vtile.ub_buffer {offset = 0 : i64, bytes = 32 : i64}
    return
  }
}

// -----

func.func @dma_not_gm(%x: memref<64xbf16>) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{GM operand must be a memref in #vtile.space<gm>, but it is 'memref<64xbf16>'}}
  vtile.copy_gm_to_ub %x[%c0] to %c0 bursts %c0 x %c0 strides (%c0, %c0) : memref<64xbf16>
  return
}

// -----

func.func @dma_ub_misaligned(%x: memref<64xbf16, #vtile.space<gm>>) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{the UB address 8 is not 32-byte aligned}}
  vtile.copy_gm_to_ub %x[%c0] to %c8 bursts %c0 x %c0 strides (%c0, %c0) : memref<64xbf16, #vtile.space<gm>>
  return
}

// -----

func.func @dma_too_many_bursts(%x: memref<64xbf16, #vtile.space<gm>>) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %n = arith.constant 4096 : index
  // expected-error @+1 {{has 4096 bursts, but a copy has 0 to 4095}}
  vtile.copy_ub_to_gm %c0 to %x[%c0] bursts %n x %c0 strides (%c0, %c0) : memref<64xbf16, #vtile.space<gm>>
  return
}

// -----

func.func @dma_burst_too_long(%x: memref<64xbf16, #vtile.space<gm>>) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2097152 : index
  // expected-error @+1 {{has bursts of 2097152 bytes, but a burst has 0 to 2097151}}
  vtile.copy_gm_to_ub %x[%c0] to %c0 bursts %c1 x %n strides (%c0, %c0) : memref<64xbf16, #vtile.space<gm>>
  return
}

// -----

func.func @dma_negative_stride(%x: memref<64xbf16, #vtile.space<gm>>) attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant -2 : index
  // expected-error @+1 {{has a negative stride or offset (-2)}}
  vtile.copy_gm_to_ub %x[%c0] to %c0 bursts %c1 x %c1 strides (%m, %c0) : memref<64xbf16, #vtile.space<gm>>
  return
}

// -----

func.func @repeat_limit() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %r = arith.constant 256 : index
  // expected-error @+1 {{repeats 256 times, but an instruction repeats 0 to 255 times}}
  vtile.vbinary <add> %c0, %c0, %c0 repeat %r : f32
  return
}

// -----

func.func @mask_too_wide() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has mask 65, but a repeat of 32-bit lanes has 1 to 64 lanes}}
  vtile.vbinary <add> %c0, %c0, %c0 repeat %c1 {mask = 65 : i64} : f32
  return
}

// -----

func.func @operand_misaligned() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{an operand's UB address 4 is not 32-byte aligned}}
  vtile.vbinary <add> %c0, %c4, %c0 repeat %c1 : f32
  return
}

// -----

func.func @operand_outside_ub() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %far = arith.constant 262144 : index
  // expected-error @+1 {{an operand's UB address 262144 is outside the 253952-byte UB of chip 950pr}}
  vtile.vunary <abs> %far, %c0 repeat %c1 : f32
  return
}

// -----

func.func @logic_on_floats() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'and' takes integer lanes (a bit view of the data), not 'f32'}}
  vtile.vbinary <and> %c0, %c0, %c0 repeat %c1 : f32
  return
}

// -----

func.func @div_on_integers() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'div' takes float lanes, not 'ui32'}}
  vtile.vscalar <div> %c0, %c0, 3 : ui32 repeat %c1 : ui32
  return
}

// -----

func.func @not_on_floats() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'not' takes integer lanes, not 'bf16'}}
  vtile.vunary <not> %c0, %c0 repeat %c1 : bf16
  return
}

// -----

func.func @scalar_mismatch() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{scalar 1.500000e+00 : f32 does not fit lanes of 'ui16'}}
  vtile.vdup %c0, 1.5 : f32 repeat %c1 : ui16
  return
}

// -----

func.func @lane_type() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{lane type 'f64' is not a lane type}}
  vtile.vbinary <add> %c0, %c0, %c0 repeat %c1 : f64
  return
}

// -----

func.func @stride_count() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{block_strides has 2 entries, but the instruction has 3 UB operands (destination first)}}
  vtile.vbinary <add> %c0, %c0, %c0 repeat %c1 {block_strides = array<i64: 1, 1>} : f32
  return
}

// -----

func.func @dst_block_stride_zero() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has destination block stride 0, which the hardware leaves undefined}}
  vtile.vunary <abs> %c0, %c0 repeat %c1 {block_strides = array<i64: 0, 1>} : f32
  return
}

// -----

func.func @cmps_strides() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{takes no strides (its mask is written packed)}}
  vtile.vcmps <gt> %c0, %c0, 1 : ui32 repeat %c1 {repeat_strides = array<i64: 1, 8>} : ui32
  return
}

// -----

module attributes {vtile.chip = "a2"} {
  func.func @no_fp8_cast_on_a2() attributes {vtile.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{chip a2 has no cast from f32 to f8E4M3FN (no fp8/fp4 conversion instructions: MX needs integer code there)}}
    vtile.vcast %c0, %c0 repeat %c1 <rint> {sat} : f32 to f8E4M3FN
    return
  }
}

// -----

func.func @fp8_round_mode() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{the cast from f32 to f8E4M3FN has no round mode 'floor'}}
  vtile.vcast %c0, %c0 repeat %c1 <floor> {sat} : f32 to f8E4M3FN
  return
}

// -----

func.func @fp4_not_saturating() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{the cast from bf16 to f4E2M1FN is modelled only saturating ('sat')}}
  vtile.vcast %c0, %c0 repeat %c1 <rint> : bf16 to f4E2M1FN
  return
}

// -----

func.func @no_such_cast() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{there is no cast from f16 to f4E2M1FN}}
  vtile.vcast %c0, %c0 repeat %c1 <rint> {sat} : f16 to f4E2M1FN
  return
}

// -----

func.func @truncate_mode() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{the cast from f32 to f32 has no round mode 'odd'}}
  vtile.vcast %c0, %c0 repeat %c1 <odd> : f32 to f32
  return
}

// -----

func.func @group_not_blocks() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has groups of 4 lanes of 32 bits, but a group is a whole number of 32-byte blocks}}
  vtile.vreduce_group <max> %c0, %c0 repeat %c1 {group = 4 : i64} : ui32
  return
}

// -----

func.func @ctrl_bit() attributes {vtile.kernel} {
  // expected-error @+1 {{sets CTRL bit 49, but the model has bit 50 only (a saturating FP8 cast's NaN)}}
  vtile.set_ctrl [49] = true
  return
}

// -----

func.func @flag_same_pipe() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{joins pipe 'v' to itself; order one pipe with vtile.pipe_barrier}}
  vtile.set_flag [<v>, <v>, %c0]
  return
}

// -----

func.func @flag_all() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{names pipe 'all'; a flag joins two pipes}}
  vtile.wait_flag [<all>, <v>, %c0]
  return
}

// -----

func.func @flag_reserved() attributes {vtile.kernel} {
  %c6 = arith.constant 6 : index
  // expected-error @+1 {{uses event id 6, which the hardware reserves (6: reserved, 7: TPipe); kernels use 0 to 5}}
  vtile.set_flag [<mte2>, <v>, %c6]
  return
}

// -----

func.func @flag_range() attributes {vtile.kernel} {
  %c9 = arith.constant 9 : index
  // expected-error @+1 {{uses event id 9, but ids are 0 to 7}}
  vtile.wait_flag [<mte2>, <v>, %c9]
  return
}

// -----

func.func @vindex_float() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{fills integer lanes of 16 or 32 bits, not 'f32'}}
  vtile.vindex %c0, 0 repeat %c1 : f32
  return
}

// -----

func.func @vindex_repeat() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c300 = arith.constant 300 : index
  // expected-error @+1 {{repeats 300 times, but an instruction repeats 0 to 255 times}}
  vtile.vindex %c0, 0 repeat %c300 : ui32
  return
}

// -----

func.func @vgather_16bit() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{gathers 32-bit lanes (the offsets are 32-bit), not 'bf16'}}
  vtile.vgather %c0, %c0, %c0 repeat %c1 : bf16
  return
}

// -----

func.func @vgather_misaligned() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  // expected-error @+1 {{an operand's UB address 48 is not 32-byte aligned}}
  vtile.vgather %c0, %c48, %c0 repeat %c1 : ui32
  return
}

// -----

func.func @vgather_mask() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has mask 65, but a repeat of 32-bit lanes has 1 to 64 lanes}}
  vtile.vgather %c0, %c0, %c0 repeat %c1 {mask = 65 : i64} : ui32
  return
}

// -----

func.func @vtranspose_8bit() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{transposes 16- or 32-bit lanes, not 'ui8'}}
  vtile.vtranspose %c0, %c0 {rows = 32 : i64, cols = 32 : i64, src_stride = 32 : i64, dst_stride = 32 : i64} : ui8
  return
}

// -----

func.func @vtranspose_side() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{transposes a 12 x 32 matrix, but a repeat moves a 8 x 8 block of 32-bit lanes: both sides are positive multiples of 8}}
  vtile.vtranspose %c0, %c0 {rows = 12 : i64, cols = 32 : i64, src_stride = 32 : i64, dst_stride = 16 : i64} : f32
  return
}

// -----

func.func @vtranspose_stride() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has strides (16, 32) lanes; each is at least its matrix's row (32, 32) and a whole number of 32-byte blocks (8 lanes)}}
  vtile.vtranspose %c0, %c0 {rows = 32 : i64, cols = 32 : i64, src_stride = 16 : i64, dst_stride = 32 : i64} : f32
  return
}

// -----

func.func @vtranspose_repeats() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{moves 32 x 1024 lanes in 512 repeats, but an instruction repeats at most 255 times}}
  vtile.vtranspose %c0, %c0 {rows = 32 : i64, cols = 1024 : i64, src_stride = 1024 : i64, dst_stride = 32 : i64} : f32
  return
}

// -----

func.func @vcmp_lane() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{lane type 'f4E2M1FN' is not a lane type}}
  vtile.vcmp <ge> %c0, %c0, %c0 repeat %c1 : f4E2M1FN
  return
}

// -----

func.func @vcmp_mask() attributes {vtile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{has mask 200, but a repeat of 16-bit lanes has 1 to 128 lanes}}
  vtile.vcmp <ge> %c0, %c0, %c0 repeat %c1 {mask = 200 : i64} : bf16
  return
}
