//! The damage steps' inner loops compiled a second time for AVX2, picked
//! when the CPU has it.
//!
//! Why: the crate is built for the x86-64 baseline (SSE2), which has no
//! 32-bit vector multiply, so the integer loops of the blur and the grain
//! ran four bytes at a time or scalar; with AVX2 they run eight at a time.
//! The loops are integer arithmetic, so both copies compute the same
//! bytes: the output does not depend on the machine. (The warp's tile
//! sampling has a few float steps per row, IEEE-exact either way: Rust
//! never fuses or reorders them; the AVX2 copy rounds inline where the
//! baseline calls `roundf`.)
//!
//! # How it works
//!
//! [`avx2_or_not!`] is a function's whole body: it calls `$body` (which
//! must be `#[inline(always)]`, so it is compiled into each copy) from a
//! wrapper with AVX2 enabled when the CPU has it, else directly.

/// `return $body(args)`, through an AVX2-enabled copy when the CPU has it.
macro_rules! avx2_or_not {
    ($body:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            #[target_feature(enable = "avx2")]
            fn avx2($($arg: $ty),*) -> $ret {
                $body($($arg),*)
            }
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { avx2($($arg),*) };
        }
        $body($($arg),*)
    }};
}

pub(super) use avx2_or_not;
