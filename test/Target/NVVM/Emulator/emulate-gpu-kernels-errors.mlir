// What the SIMT emulator does not model is an error naming it, never an
// unchecked or wrong run.
// RUN: mxq-opt %s --split-input-file --mxq-emulate-gpu-kernels --verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @atomic(%p: !llvm.ptr, %v: i32) attributes {gpu.kernel} {
      // expected-error @+1 {{the SIMT emulator does not check llvm.atomicrmw yet; it would run unchecked}}
      %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @+1 {{the SIMT emulator has no exact model of libdevice's __nv_expf}}
    llvm.func @__nv_expf(f32) -> f32
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @vote(%m: i32, %p: i1) -> i32 attributes {gpu.kernel} {
      // expected-error @+1 {{the SIMT emulator does not model nvvm.vote.sync}}
      %0 = nvvm.vote.sync ballot %m, %p -> i32
      llvm.return %0 : i32
    }
  }
}
