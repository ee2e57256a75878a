//! The receive ring as the Linux `ice` driver (Intel E810, a 100 GbE NIC)
//! sets it up: the sizes `ethtool -G` accepts, the descriptor and buffer
//! behind each entry, and how many frames a ring of N entries can hold.

use crate::bound::Bound;

/// Ring sizes `ethtool -G rx N` accepts: `ICE_MIN_NUM_DESC` 64 to
/// `ICE_MAX_NUM_DESC` 8160 (drivers/net/ethernet/intel/ice/ice.h; the E830
/// allows 8096). Outside it `ice_set_ringparam` (ice_ethtool.c) refuses.
pub const ENTRIES: Bound<u32> = Bound::new("ring size", " entries", 64, 8_160);

/// `ice_set_ringparam` rounds a size up to a multiple of
/// `ICE_REQ_DESC_MULTIPLE`, 32 (ice.h), and says so ("Requested Rx
/// descriptor count rounded up to …").
pub const MULTIPLE: u32 = 32;

/// `ICE_DFLT_NUM_RX_DESC` (ice.h): the size a ring gets if no one sets it.
pub const DRIVER_DEFAULT: u32 = 2_048;

/// One receive descriptor: `union ice_32b_rx_flex_desc`, four 64-bit words
/// (drivers/net/ethernet/intel/ice/ice_lan_tx_rx.h). The NIC writes it back
/// when it has filled the entry's buffer.
pub const DESCRIPTOR_BYTES: u64 = 32;

/// The buffer behind each entry: `ICE_RXBUF_2048` for an MTU of up to 1,500
/// (ice_txrx.h: "We use a 2K buffer for MTUs <= 1500"), half of a 4 KiB page.
pub const BUFFER_BYTES: u64 = 2_048;

/// `n` rounded up as `ethtool -G` does it, or `None` outside the bounds.
pub fn rounded_up(n: u32) -> Option<u32> {
    ENTRIES
        .contains(n)
        .then(|| n.div_ceil(MULTIPLE) * MULTIPLE)
        .filter(|&r| ENTRIES.contains(r))
}

/// Whether `n` is a size the driver would keep as it is.
pub fn is_valid(n: u32) -> bool {
    rounded_up(n) == Some(n)
}

/// Frames a ring of `entries` can hold at once: one entry fewer. The
/// driver never hands the NIC the last free entry, so that a full ring and
/// an empty one look different: `ICE_RX_DESC_UNUSED` counts the entries it
/// may fill as `count + first_desc - next_to_use - 1` (ice_txrx.h; ixgbe's
/// `ixgbe_desc_unused` has the same `- 1`).
pub fn holds(entries: u32) -> u64 {
    u64::from(entries).saturating_sub(1)
}

/// The largest valid size not above `n`, if there is one.
pub fn rounded_down(n: u64) -> Option<u32> {
    let n = u32::try_from(n.min(u64::from(ENTRIES.max))).ok()?;
    let down = n / MULTIPLE * MULTIPLE;
    ENTRIES.contains(down).then_some(down)
}

/// The smallest valid size of at least `n`, if there is one.
pub fn at_least(n: u64) -> Option<u32> {
    let n = u32::try_from(n.max(u64::from(ENTRIES.min))).ok()?;
    rounded_up(n)
}
