//! Shared memory's banks, and how many requests one warp's access takes.
//!
//! The rules, from the CUDA C++ Best Practices Guide, §10.2.3.1 "Shared
//! Memory and Memory Banks": "On devices of compute capability 5.x or newer,
//! each bank has a bandwidth of 32 bits every clock cycle, and successive
//! 32-bit words are assigned to successive banks. The warp size is 32
//! threads and the number of banks is also 32." "The hardware splits a
//! memory request that has bank conflicts into as many separate
//! conflict-free requests as necessary", with one exception: "when multiple
//! threads in a warp address the same shared memory location, resulting in
//! a broadcast". The CUDA C++ Programming Guide ("Compute Capability 5.x",
//! Shared Memory) puts it: "A shared memory request for a warp does not
//! generate a bank conflict between two threads that access any address
//! within the same 32-bit word".
//!
//! So a warp's 32-bit access takes as many requests as the most distinct
//! words any one bank holds: an n-way conflict.

use super::coalescing::WARP;

/// Banks in shared memory (compute capability 5.x and later).
pub const BANKS: u64 = 32;

/// Bytes in a bank's word: successive 32-bit words go to successive banks.
pub const WORD_BYTES: u64 = 4;

/// The bank that 32-bit word `word` lies in.
pub fn bank(word: u64) -> u64 {
    word % BANKS
}

/// The word thread `t` reads when threads are `stride` words apart: a
/// column of a tile whose rows are `stride` words long (0: every thread
/// reads the same word).
pub fn word(t: usize, stride: u32) -> u64 {
    (t as u64).saturating_mul(u64::from(stride))
}

/// For each bank, how many distinct words the warp reads in it. Threads
/// reading the same word count once: that word is broadcast.
pub fn words_per_bank(stride: u32) -> [u32; BANKS as usize] {
    let mut words: Vec<u64> = (0..WARP).map(|t| word(t, stride)).collect();
    words.sort_unstable();
    words.dedup();
    let mut out = [0; BANKS as usize];
    for w in words {
        out[bank(w) as usize] += 1;
    }
    out
}

/// The n of the n-way conflict: the requests the access is split into.
pub fn conflict_degree(stride: u32) -> u32 {
    words_per_bank(stride).into_iter().max().unwrap_or(1).max(1)
}

/// Whether threads share a word (and so get it by broadcast): with a
/// stride of at least one word, every thread reads a word of its own.
pub fn broadcast(stride: u32) -> bool {
    stride == 0
}
