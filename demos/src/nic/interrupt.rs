//! One device interrupt, counted by one rule in the busy-poll demo and in
//! the coalescing demo: MSI-X delivery is a posted memory write on its way
//! to the core's interrupt controller (PCIe Base Specification §6.1.4). The
//! packet waits for it, but no core runs while it travels, so it is latency
//! and not CPU time. The hard-IRQ handler is both. The default costs are the
//! busy-poll model's assumptions (see its module notes).

/// The driver's NAPI poll, GRO and the IP/UDP stack, per packet (the
/// coalescing demo's poll costs the same).
pub const NAPI_POLL_NS: u32 = 1_500;

/// One device interrupt: what a packet waits for, and what a core spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupt {
    /// The MSI-X message's trip to the core.
    pub delivery_ns: u32,
    /// The hard-IRQ handler, up to `napi_schedule()`.
    pub handler_ns: u32,
}

impl Interrupt {
    /// The default costs (this model's assumptions, see the module notes).
    pub const DEFAULT: Interrupt = Interrupt {
        delivery_ns: 500,
        handler_ns: 1_000,
    };
    /// Whether a core spends the delivery: no, it is a memory write in flight.
    pub const DELIVERY_IS_CPU: bool = false;

    /// From the device's MSI-X write to the end of the handler.
    pub const fn delay_ns(self) -> u64 {
        self.delivery_ns as u64 + self.handler_ns as u64
    }

    /// What a core spends on it.
    pub const fn cpu_ns(self) -> u64 {
        let delivery = if Self::DELIVERY_IS_CPU {
            self.delivery_ns as u64
        } else {
            0
        };
        delivery + self.handler_ns as u64
    }
}
