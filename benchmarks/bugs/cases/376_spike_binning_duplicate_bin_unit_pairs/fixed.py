import torch


def bin_spikes(spike_times, unit_index, num_units, start, end, bin_size):
    """Count spikes per (time bin, unit) for a decoding window."""
    # spike_times: [S] float seconds, unit_index: [S] int64 in [0, U)
    num_bins = int(round((end - start) / bin_size))
    inside = (spike_times >= start) & (spike_times < end)
    times, units = spike_times[inside], unit_index[inside]
    bin_index = ((times - start) / bin_size).floor().long().clamp_(max=num_bins - 1)  # [S']
    counts = torch.zeros(num_bins, num_units)  # [T, U]
    counts.index_put_((bin_index, units), torch.ones_like(times), accumulate=True)
    return counts


def firing_rates(counts, bin_size):
    # counts: [T, U] -> [U] mean rate in Hz
    return counts.mean(dim=0) / bin_size


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    num_units, start, end, bin_size = 6, 0.0, 1.0, 0.05
    spike_times = torch.rand(900, generator=g)  # [S]
    unit_index = torch.randint(0, num_units, (900,), generator=g)  # [S]
    counts = bin_spikes(spike_times, unit_index, num_units, start, end, bin_size)

    ref = [[0.0] * num_units for _ in range(20)]
    for t, u in zip(spike_times.tolist(), unit_index.tolist()):
        if start <= t < end:
            ref[min(int((t - start) // bin_size), 19)][u] += 1.0
    assert torch.equal(counts, torch.tensor(ref))
    print("ok")
