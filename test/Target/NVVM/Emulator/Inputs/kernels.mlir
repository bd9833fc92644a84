// Hand-written kernels for the SIMT emulator: one correct (shared memory,
// a barrier, a shuffle) and one seeded bug each.

// Reverses each 128-element half through shared memory, then swaps
// neighbours with a butterfly shuffle. Correct.
func.func @reverse(%x: tensor<256xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %in = bufferization.to_buffer %x : tensor<256xf32> to memref<256xf32>
  %out = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             workgroup(%sh : memref<128xf32, #gpu.address_space<workgroup>>) {
    %one = arith.constant 1 : i32
    %width = arith.constant 32 : i32
    %base = arith.muli %bx, %c128 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<256xf32>
    memref.store %v, %sh[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c127, %tx : index
    %w = memref.load %sh[%r] : memref<128xf32, #gpu.address_space<workgroup>>
    %s, %ok = gpu.shuffle xor %w, %one, %width : f32
    memref.store %s, %out[%i] : memref<256xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %out restrict writable : memref<256xf32> to tensor<256xf32>
  return %t : tensor<256xf32>
}

// Seeded bug: reads x[i + 1], one past the end in the last thread.
func.func @off_by_one(%x: tensor<256xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %in = bufferization.to_buffer %x : tensor<256xf32> to memref<256xf32>
  %out = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c128 : index
    %i = arith.addi %base, %tx : index
    %next = arith.addi %i, %c1 : index
    %v = memref.load %in[%next] : memref<256xf32>
    memref.store %v, %out[%i] : memref<256xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %out restrict writable : memref<256xf32> to tensor<256xf32>
  return %t : tensor<256xf32>
}

// Seeded bug: @reverse without its barrier.
func.func @missing_barrier(%x: tensor<256xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %in = bufferization.to_buffer %x : tensor<256xf32> to memref<256xf32>
  %out = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             workgroup(%sh : memref<128xf32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %c128 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<256xf32>
    memref.store %v, %sh[%tx] : memref<128xf32, #gpu.address_space<workgroup>>
    %r = arith.subi %c127, %tx : index
    %w = memref.load %sh[%r] : memref<128xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%i] : memref<256xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %out restrict writable : memref<256xf32> to tensor<256xf32>
  return %t : tensor<256xf32>
}

// Seeded bug: only the first 64 threads of a block reach the barrier.
func.func @divergent_barrier(%x: tensor<256xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %in = bufferization.to_buffer %x : tensor<256xf32> to memref<256xf32>
  %out = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c128 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %in[%i] : memref<256xf32>
    %low = arith.cmpi ult, %tx, %c64 : index
    scf.if %low {
      gpu.barrier
    }
    memref.store %v, %out[%i] : memref<256xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %out restrict writable : memref<256xf32> to tensor<256xf32>
  return %t : tensor<256xf32>
}

// Seeded bug: a 16-byte vector load that promises 16-byte alignment at an
// address that is only 4-byte aligned.
func.func @misaligned(%x: tensor<260xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %in = bufferization.to_buffer %x : tensor<260xf32> to memref<260xf32>
  %out = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %tx, %c4 : index
    %j = arith.addi %i, %c1 : index
    %v = vector.load %in[%j] {alignment = 16} : memref<260xf32>, vector<4xf32>
    vector.store %v, %out[%i] : memref<256xf32>, vector<4xf32>
    gpu.terminator
  }
  %t = bufferization.to_tensor %out restrict writable : memref<256xf32> to tensor<256xf32>
  return %t : tensor<256xf32>
}
