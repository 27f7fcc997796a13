import torch


def events_to_frame(xs, ys, ps, height, width):
    frame = torch.zeros(2, height, width)
    channel = (ps > 0).long()
    frame.index_put_((channel, ys, xs), torch.ones(xs.shape[0]), accumulate=True)
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
    ref = [[[0.0] * 16 for _ in range(16)] for _ in range(2)]
    for x, y, p in zip(xs.tolist(), ys.tolist(), ps.tolist()):
        ref[1 if p > 0 else 0][y][x] += 1.0
    assert torch.equal(frame, torch.tensor(ref))
    assert int(frame.sum()) == 500
    print("ok")
