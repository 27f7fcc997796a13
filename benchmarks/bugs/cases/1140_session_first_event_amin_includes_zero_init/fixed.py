import torch

CONFIG = {"num_sessions": 5, "events": 40, "t0": 1_700_000_000.0, "span": 3_600.0, "seed": 0}


def load_events(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    session = torch.randint(0, cfg["num_sessions"], (cfg["events"],), generator=g)
    ts = cfg["t0"] + torch.rand(cfg["events"], generator=g, dtype=torch.float64) * cfg["span"]
    return session, ts


def session_bounds(session, ts, num_sessions):
    first = torch.zeros(num_sessions, dtype=ts.dtype)
    first = first.scatter_reduce(0, session, ts, reduce="amin", include_self=False)
    last = torch.zeros(num_sessions, dtype=ts.dtype)
    last = last.scatter_reduce(0, session, ts, reduce="amax", include_self=False)
    return first, last


def session_features(cfg):
    session, ts = load_events(cfg)
    first, last = session_bounds(session, ts, cfg["num_sessions"])
    counts = torch.bincount(session, minlength=cfg["num_sessions"])
    duration = last - first
    rate = counts / duration.clamp(min=1.0)
    return duration, rate


if __name__ == "__main__":
    duration, rate = session_features(CONFIG)
    session, ts = load_events(CONFIG)
    lo, hi, n = {}, {}, {}
    for s, t in zip(session.tolist(), ts.tolist()):
        lo[s] = min(lo.get(s, t), t)
        hi[s] = max(hi.get(s, t), t)
        n[s] = n.get(s, 0) + 1
    for s in range(CONFIG["num_sessions"]):
        assert abs(duration[s].item() - (hi[s] - lo[s])) < 1e-6
        assert abs(rate[s].item() - n[s] / max(hi[s] - lo[s], 1.0)) < 1e-9
    print("ok")
