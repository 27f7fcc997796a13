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
            batch_dim = plate_dim - site["event_dim"]
            subidxs = torch.randint(0, value.size(batch_dim), (subsample_size,), generator=generator)
            value = value.index_select(batch_dim, subidxs)  # (..., subsample_size, ..., *event)
        out[name] = value
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_data, latent_dim = 50, 3
    trace = make_posterior_trace(num_data, latent_dim)
    sub = subsample_sites(trace, torch.Generator().manual_seed(7))
    g = torch.Generator().manual_seed(7)
    for name, site in trace.items():
        value = site["value"]
        (_, plate_dim, size), = site["plates"]
        batch_dim = value.dim() + plate_dim - site["event_dim"]
        picks = torch.randint(0, value.size(batch_dim), (size,), generator=g).tolist()
        moved = value.movedim(batch_dim, 0)
        ref = torch.stack([moved[i] for i in picks]).movedim(0, batch_dim)
        assert sub[name].shape == ref.shape and torch.equal(sub[name], ref)
    print("ok")
