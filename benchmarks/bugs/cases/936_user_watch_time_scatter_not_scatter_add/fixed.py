import torch
from torch.utils.data import DataLoader

EVENTS = [
    {"user": "u17", "item": 3, "seconds": 41.0},
    {"user": "u02", "item": 8, "seconds": 12.5},
    {"user": "u17", "item": 5, "seconds": 30.0},
    {"user": "u44", "item": 1, "seconds": 7.0},
    {"user": "u02", "item": 2, "seconds": 66.0},
    {"user": "u17", "item": 9, "seconds": 3.5},
    {"user": "u44", "item": 4, "seconds": 18.0},
    {"user": "u90", "item": 7, "seconds": 25.0},
]


def collate_sessions(batch):
    users = sorted({e["user"] for e in batch})
    slot = {u: i for i, u in enumerate(users)}
    return {
        "users": users,
        "user_idx": torch.tensor([slot[e["user"]] for e in batch]),
        "item": torch.tensor([e["item"] for e in batch]),
        "seconds": torch.tensor([e["seconds"] for e in batch]),
    }


def per_user_engagement(batch):
    totals = torch.zeros(len(batch["users"]))
    totals = totals.scatter_add(0, batch["user_idx"], batch["seconds"])
    counts = torch.zeros(len(batch["users"])).scatter_add(0, batch["user_idx"], torch.ones_like(batch["seconds"]))
    return totals, totals / counts


if __name__ == "__main__":
    loader = DataLoader(EVENTS, batch_size=8, collate_fn=collate_sessions)
    for batch in loader:
        totals, mean_session = per_user_engagement(batch)
        ref_total, ref_count = {}, {}
        for e in EVENTS:
            ref_total[e["user"]] = ref_total.get(e["user"], 0.0) + e["seconds"]
            ref_count[e["user"]] = ref_count.get(e["user"], 0) + 1
        for u, t, m in zip(batch["users"], totals.tolist(), mean_session.tolist()):
            assert abs(t - ref_total[u]) < 1e-5
            assert abs(m - ref_total[u] / ref_count[u]) < 1e-5
    print("ok")
