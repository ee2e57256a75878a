//! What the page prints about the ring: status figures and "why it matters".

use super::*;
use crate::text::{decimal, plural};

impl DescriptorRing {
    /// Empty, full, or how many descriptors are in use. One slot always stays
    /// FREE, so a full ring holds RING_SIZE - 1.
    pub fn fill_label(&self) -> String {
        let in_use = RING_SIZE - self.count(SlotState::Free);
        match in_use {
            0 => "empty".to_string(),
            n if n == RING_SIZE - 1 => format!("full ({n} of {RING_SIZE})"),
            n => format!("{n} of {} in use", RING_SIZE - 1),
        }
    }

    pub(super) fn figures(&self) -> Vec<Figure> {
        let mut figures = vec![
            Figure::new(
                "mode",
                "mode",
                match self.config.direction {
                    Direction::Rx => "RX",
                    Direction::Tx => "TX",
                },
            ),
            Figure::new("fill", "ring", self.fill_label()),
            Figure::new("head", "HEAD", self.head),
            Figure::new("tail", "TAIL", self.tail),
            Figure::new("doorbell", "NIC's TAIL", self.doorbell),
            Figure::new("free", "FREE", self.count(SlotState::Free)),
            Figure::new("own", "OWN", self.count(SlotState::Owned)),
            Figure::new("dd", "DD", self.count(SlotState::Done)),
            Figure::new("pending", "pending stores", self.store_buffer.len()),
        ];
        match self.config.direction {
            Direction::Rx => {
                figures.push(Figure::new(
                    "delivered",
                    "frames to stack",
                    self.delivered.len(),
                ));
                figures.push(Figure::new("missed", "rx_missed", self.counters.rx_missed));
            }
            Direction::Tx => {
                figures.push(Figure::new(
                    "delivered",
                    "frames sent",
                    self.delivered.len(),
                ));
            }
        }
        figures.push(Figure::new(
            "corrupted",
            "corrupted DMAs",
            self.damage.len(),
        ));
        figures
    }

    pub(super) fn why_sentences(&self) -> Vec<String> {
        let c = &self.counters;
        let mut out = Vec::new();
        if c.doorbells > 0 {
            let published = c.fetched as usize + self.published_pending();
            out.push(format!(
                "{} doorbell write{} published {published} descriptor{}: {} per MMIO write. Posting several descriptors behind one doorbell saves PCIe writes.",
                c.doorbells,
                plural(c.doorbells as usize),
                plural(published),
                decimal(published as f64 / f64::from(c.doorbells), 1)
            ));
        } else {
            out.push(
                "No doorbell yet: whatever the driver has posted, the NIC cannot see it.".into(),
            );
        }
        if c.reaped > 0 {
            out.push(format!(
                "The driver learned of {} completion{} by reading DD bits in host memory — cheap, cached reads. Polling a NIC register instead would stall the core for a PCIe round trip each time.",
                c.reaped,
                plural(c.reaped as usize)
            ));
        }
        if !self.damage.is_empty() {
            out.push(format!(
                "{} DMA{} used a half-written descriptor: without wmb() the doorbell, a write to the device, overtook ordinary stores to host memory.",
                self.damage.len(),
                plural(self.damage.len())
            ));
        } else if self.skip_barrier {
            out.push("The barrier is switched off: a doorbell rung while stores are pending lets the NIC read stale fields.".into());
        } else {
            out.push("With wmb() before every doorbell, the NIC can never read a half-written descriptor.".into());
        }
        out.push(format!(
            "{} more post{} fit. One of the {RING_SIZE} slots always stays empty, so equal indices can only mean an empty ring.",
            self.free_to_post(),
            plural(self.free_to_post())
        ));
        out
    }
}
