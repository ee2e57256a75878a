//! Every demo, for the tests that check each one. One list, so that a new
//! demo joins every such test with one line (the recipe's second edit).

/// Calls the macro `$each` with `name: Model,` for every demo.
macro_rules! every_demo {
    ($each:ident) => {
        $each! {
            batching: demos::cpu::batching::Batching,
            branch: demos::cpu::branch::Branch,
            cache_hierarchy: demos::cpu::cache_hierarchy::CacheHierarchy,
            locality: demos::cpu::locality::Locality,
            mesi: demos::cpu::mesi::Mesi,
            numa: demos::cpu::numa::Numa,
            tlb: demos::cpu::tlb::Tlb,
            ecmp: demos::fabric::ecmp::Ecmp,
            maglev: demos::fabric::maglev::Maglev,
            metastable: demos::fabric::metastable::Metastable,
            pfc: demos::fabric::pfc::Pfc,
            memory: demos::gpu::memory::GpuMemory,
            pcie: demos::host::pcie::Pcie,
            ring_sizing: demos::host::ring_sizing::RingSizing,
            rss: demos::host::rss::Rss,
            streaming: demos::host::streaming::Streaming,
            zero_copy: demos::host::zero_copy::ZeroCopy,
            journey: demos::journey::Journey,
            aba: demos::memory::aba::Aba,
            cas: demos::memory::cas::Cas,
            false_sharing: demos::memory::false_sharing::FalseSharing,
            mpmc: demos::memory::mpmc::Mpmc,
            rcu: demos::memory::rcu::Rcu,
            reordering: demos::memory::reordering::Reordering,
            spsc: demos::memory::spsc::Spsc,
            allreduce: demos::net::allreduce::AllReduce,
            congestion: demos::net::congestion::Congestion,
            encapsulation: demos::net::encapsulation::Encapsulation,
            handshake: demos::net::handshake::Handshake,
            incast: demos::net::incast::Incast,
            busy_poll: demos::nic::busy_poll::BusyPoll,
            coalescing: demos::nic::coalescing::Coalescing,
            cut_through: demos::nic::cut_through::CutThrough,
            descriptor_ring: demos::nic::descriptor_ring::DescriptorRing,
            dma_map: demos::nic::dma_map::DmaMap,
            iommu: demos::nic::iommu::Iommu,
            mmio: demos::nic::mmio::Mmio,
            napi: demos::nic::napi::Napi,
            rdma_qp: demos::nic::rdma_qp::RdmaQp,
            send_path: demos::nic::send_path::SendPath,
        }
    };
}

pub(crate) use every_demo;
