import torch


def make_posterior_trace(num_data, latent_dim):
    # each site: value (*batch_shape, *event_shape); plates index batch dims counted from the right
    return {
        "scale": {"value": torch.rand(num_data) + 0.5, "event_dim": 0, "plates": [("data", -1, 10)]},
        "locs": {"value": torch.randn(num_data, latent_dim), "event_dim": 1, "plates": [("data", -1, 10)]},
        "weights": {"value": torch.rand(num_data, 4, latent_dim), "event_dim": 1, "plates": [("data", -2, 10)]},
    }


def subsample_sites(trace, generator):
    """Resample plate dims of each posterior site down to the plate's subsample size."""
    out = {}
    for name, site in trace.items():
        value = site["value"]  # (..., plate_size, ..., *event)
        for _, plate_dim, subsample_size in site["plates"]:
            subidxs = torch.randint(0, value.size(plate_dim), (subsample_size,), generator=generator)
            value = value.index_select(plate_dim, subidxs)  # (..., subsample_size, ..., *event)
        out[name] = value
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_data, latent_dim = 50, 3
    trace = make_posterior_trace(num_data, latent_dim)
    sub = subsample_sites(trace, torch.Generator().manual_seed(7))
    for name, site in trace.items():
        print(f"{name:8s} full {tuple(site['value'].shape)} -> subsampled {tuple(sub[name].shape)}")
