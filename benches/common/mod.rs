//! Helpers shared by the benchmarks.

use std::time::Duration;

/// This thread's CPU time: benchmarks that time with it report per-core
/// figures even on a busy machine, where wall-clock samples include waiting
/// for a CPU.
pub fn thread_cpu_time() -> Duration {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Compiles `benches/<source>` (`cc -O2`, no `-march=native`) into a shared
/// object and returns the address of its function `symbol`. The handle is
/// kept for the process.
#[allow(dead_code)] // not every benchmark has a C reference
pub fn plain_c_function(source: &str, symbol: &std::ffi::CStr) -> *mut libc::c_void {
    let src = format!("{}/../../benches/{source}", env!("CARGO_MANIFEST_DIR"));
    // (Examples share this file, and Cargo gives only benchmarks a folder.)
    let dir = option_env!("CARGO_TARGET_TMPDIR").map_or_else(std::env::temp_dir, Into::into);
    let lib = format!("{}/{source}.so", dir.display());
    let status = std::process::Command::new("cc")
        .args(["-O2", "-shared", "-fPIC", "-o", &lib, &src])
        .status()
        .expect("cc runs");
    assert!(status.success(), "cc failed on {src}");
    let path = std::ffi::CString::new(lib.clone()).unwrap();
    // SAFETY: NUL-terminated strings; the handle is never closed.
    unsafe {
        let handle = libc::dlopen(path.as_ptr(), libc::RTLD_NOW);
        assert!(!handle.is_null(), "dlopen {lib}");
        let function = libc::dlsym(handle, symbol.as_ptr());
        assert!(!function.is_null(), "{symbol:?} not found in {lib}");
        function
    }
}
