import torch


def events_to_count_frame(events, height, width):
    # events: [N, 4] rows of (t, x, y, p), p in {-1, +1}
    xs = events[:, 1].long()                               # [N]
    ys = events[:, 2].long()                               # [N]
    chan = (events[:, 3] < 0).long()                       # [N] 0 = ON, 1 = OFF
    frame = torch.zeros(2, height, width)                  # [2, H, W] event counts
    flat = (chan * height + ys) * width + xs               # [N] linear index into frame
    frame.put_(flat, torch.ones(flat.numel()))
    return frame


def normalized_input(events, height, width):
    counts = events_to_count_frame(events, height, width)  # [2, H, W]
    return counts / counts.amax().clamp(min=1.0)


def synthetic_stream(n=400, height=6, width=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.sort(torch.rand(n, generator=g)).values
    x = torch.randint(0, width, (n,), generator=g).float()
    y = torch.randint(0, height, (n,), generator=g).float()
    p = torch.randint(0, 2, (n,), generator=g).float() * 2 - 1
    return torch.stack([t, x, y, p], dim=1)


if __name__ == "__main__":
    ev = synthetic_stream()
    frame = events_to_count_frame(ev, 6, 8)
    print("events:", ev.shape[0], "counted:", int(frame.sum()), "max per pixel:", int(frame.max()))
    print(normalized_input(ev, 6, 8)[0])
