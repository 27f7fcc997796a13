import torch

CONFIG = {"num_sessions": 5, "events": 40, "t0": 1_700_000_000.0, "span": 3_600.0, "seed": 0}


def load_events(cfg):
    g = torch.Generator().manual_seed(cfg["seed"])
    session = torch.randint(0, cfg["num_sessions"], (cfg["events"],), generator=g)
    ts = cfg["t0"] + torch.rand(cfg["events"], generator=g, dtype=torch.float64) * cfg["span"]
    return session, ts


def session_bounds(session, ts, num_sessions):
    first = torch.zeros(num_sessions, dtype=ts.dtype)
    first = first.scatter_reduce(0, session, ts, reduce="amin")
    last = torch.zeros(num_sessions, dtype=ts.dtype)
    last = last.scatter_reduce(0, session, ts, reduce="amax")
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
    print("session duration (s):", [round(d, 1) for d in duration.tolist()])
    print("events per second:", rate.tolist())
