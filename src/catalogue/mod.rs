//! The one catalogue: it drives the home page, the routes and page titles.
//! A demo is on the site if and only if it has an entry in one of the
//! section files below (one file per section, so sections grow independently).

use std::future::Future;
use std::pin::Pin;
use views::LiveDemo;
use wasm_split_helpers::SplitLoaderError;

/// `split_open!(module: Model)`: the [`Open`] of one demo. The model and
/// picture it reaches are cut into a wasm module of their own, named
/// `module` (`scripts/split-wasm.sh`), so a page fetches the code of the one
/// demo it shows, and a new demo adds almost nothing to the others.
macro_rules! split_open {
    ($module:ident: $model:ty) => {{
        #[wasm_split_helpers::wasm_split($module, wasm_split_path = wasm_split_helpers, fallible)]
        fn open(
            link: Option<String>,
        ) -> Result<$crate::catalogue::Opened, wasm_split_helpers::SplitLoaderError> {
            Ok(views::open::<$model>(link.as_deref()))
        }
        fn load(link: Option<String>) -> $crate::catalogue::Loading {
            Box::pin(open(link))
        }
        $crate::catalogue::Open {
            module: stringify!($module),
            load,
        }
    }};
}

mod cpu;
mod fabric;
mod gpu;
mod host;
mod journey;
mod memory;
mod net;
mod nic;

/// A section of the lab.
pub struct Section {
    /// First path segment, e.g. `nic`.
    pub id: &'static str,
    pub title: &'static str,
    pub purpose: &'static str,
}

/// A demo opened from a share-link value: the running demo, and a notice when
/// the link could not be restored.
pub type Opened = (Box<dyn LiveDemo>, Option<String>);

/// Fetches a demo's module (once) and opens the demo; fails only if the
/// module cannot be fetched.
pub type Loading = Pin<Box<dyn Future<Output = Result<Opened, SplitLoaderError>>>>;

/// How a demo opens: the wasm module its code is in, and the function that
/// fetches that module (once) and opens the demo from a share-link value.
pub struct Open {
    /// The demo's slug with `_` for `-`: the page's first script fetches the
    /// module of the demo in the address bar by that rule
    /// (`scripts/split-head.js`).
    pub module: &'static str,
    pub load: fn(Option<String>) -> Loading,
}

/// A demo that exists. There are no placeholder entries.
pub struct Demo {
    /// The section's id; empty for a tour, a page of no section that
    /// draws on several (the journey, [`journey::TOURS`]).
    pub section: &'static str,
    pub slug: &'static str,
    pub title: &'static str,
    pub one_liner: &'static str,
    pub open: Open,
}

impl Demo {
    /// The route, without the site's base path.
    pub fn path(&self) -> String {
        if self.section.is_empty() {
            format!("/{}", self.slug)
        } else {
            format!("/{}/{}", self.section, self.slug)
        }
    }
}

pub const SECTIONS: &[Section] = &[
    Section {
        id: "nic",
        title: "The NIC datapath",
        purpose: "Move a packet between host memory and the wire, one register write at a time.",
    },
    Section {
        id: "host",
        title: "Host I/O",
        purpose: "PCIe, queues and buffers: what lies between the NIC and the cores.",
    },
    Section {
        id: "memory",
        title: "Concurrency & the memory model",
        purpose: "Race two threads, watch lock-free code fail, then make it correct.",
    },
    Section {
        id: "cpu",
        title: "CPU & microarchitecture",
        purpose: "Caches, TLBs, predictors and sockets: the machine under your C.",
    },
    Section {
        id: "net",
        title: "Networking, TCP & AI fabric",
        purpose: "From the three-way handshake to collectives across a GPU cluster.",
    },
    Section {
        id: "fabric",
        title: "Fabric & distributed",
        purpose: "Spread flows over paths and servers, and watch what moves when one goes.",
    },
    Section {
        id: "gpu",
        title: "GPU",
        purpose: "Thirty-two threads load at once: sectors, lines and banks decide what it costs.",
    },
];

/// Every demo, section by section.
pub fn all() -> impl Iterator<Item = &'static Demo> {
    [
        nic::DEMOS,
        host::DEMOS,
        memory::DEMOS,
        cpu::DEMOS,
        net::DEMOS,
        fabric::DEMOS,
        gpu::DEMOS,
    ]
    .into_iter()
    .flatten()
}

/// The journey: one message through every layer (`/journey`).
pub fn journey() -> &'static Demo {
    &journey::TOURS[0]
}

/// Every page that runs a demo: the sections' demos and the tours.
pub fn pages() -> impl Iterator<Item = &'static Demo> {
    all().chain(journey::TOURS)
}

/// The page at `/section/slug`, or at `/slug` for a tour (`section` empty).
pub fn find(section: &str, slug: &str) -> Option<&'static Demo> {
    pages().find(|d| d.section == section && d.slug == slug)
}

/// Whether `demo`'s page links to the journey: a stage of the journey
/// comes from its model ([`demos::journey::STAGE_DEMOS`]).
pub fn on_the_journey(demo: &Demo) -> bool {
    demos::journey::STAGE_DEMOS
        .iter()
        .any(|at| at.split_once('/') == Some((demo.section, demo.slug)))
}

pub fn demos_in(section: &str) -> impl Iterator<Item = &'static Demo> + '_ {
    all().filter(move |d| d.section == section)
}

pub fn section(id: &str) -> Option<&'static Section> {
    SECTIONS.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_belongs_to_a_section_and_paths_are_unique() {
        for demo in all() {
            assert!(section(demo.section).is_some(), "{}", demo.slug);
            assert_eq!(all().filter(|d| d.path() == demo.path()).count(), 1);
        }
    }

    #[test]
    fn the_journey_is_at_its_own_address_and_its_stages_demos_exist() {
        assert_eq!(journey().path(), "/journey");
        assert!(std::ptr::eq(find("", "journey").unwrap(), journey()));
        assert!(section(journey().section).is_none());
        for at in demos::journey::STAGE_DEMOS {
            let (section, slug) = at.split_once('/').unwrap();
            let demo = find(section, slug).unwrap_or_else(|| panic!("{at}"));
            assert!(on_the_journey(demo));
            // Its module shares that section's chunk (scripts/catalogue.py).
            assert!(journey::DRAWS_ON.contains(&section), "{at}");
        }
        assert!(!on_the_journey(find("cpu", "tlb").unwrap()));
    }

    #[test]
    fn a_demo_module_is_named_after_its_slug() {
        for demo in pages() {
            assert_eq!(demo.open.module, demo.slug.replace('-', "_"));
        }
    }
}
