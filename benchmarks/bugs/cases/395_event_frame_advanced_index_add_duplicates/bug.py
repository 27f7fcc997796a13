import torch


def events_to_frame(xs, ys, ps, height, width):
    frame = torch.zeros(2, height, width)
    channel = (ps > 0).long()
    frame[channel, ys, xs] += 1.0
    return frame


def simulate_events(n_events, height, width, seed=0):
    g = torch.Generator().manual_seed(seed)
    xs = torch.randint(0, width, (n_events,), generator=g)
    ys = torch.randint(0, height, (n_events,), generator=g)
    ps = torch.randint(0, 2, (n_events,), generator=g) * 2 - 1
    return xs, ys, ps


if __name__ == "__main__":
    xs, ys, ps = simulate_events(500, 16, 16)
    frame = events_to_frame(xs, ys, ps, 16, 16)
    print("events:", xs.numel(), "counted in frame:", int(frame.sum()))
    print("max events at one pixel:", int(frame.max()))
