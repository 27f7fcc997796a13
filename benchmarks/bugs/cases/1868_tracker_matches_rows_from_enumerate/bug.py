import itertools

import torch
import torch.nn.functional as F

CFG = {"emb_dim": 32, "momentum": 0.9, "max_cost": 0.6}


def linear_sum_assignment(cost):
    """Minimum-cost matching of every column to a distinct row (here rows >= columns), as
    scipy.optimize.linear_sum_assignment returns it: row indices ascending, with their columns."""
    n_rows, n_cols = cost.shape
    best = min(itertools.permutations(range(n_rows), n_cols),
               key=lambda rows: sum(float(cost[r][c]) for c, r in enumerate(rows)))
    pairs = sorted(zip(best, range(n_cols)))
    return [r for r, _ in pairs], [c for _, c in pairs]


def cosine_cost(track_emb, det_emb):
    return 1.0 - F.normalize(track_emb, dim=1) @ F.normalize(det_emb, dim=1).t()


def linear_assignment(cost, thresh):
    rows, cols = linear_sum_assignment(cost.numpy())
    rows = torch.as_tensor(rows, dtype=torch.long)
    cols = torch.as_tensor(cols, dtype=torch.long)
    matched_tracks = torch.arange(cols.numel())
    keep = cost[matched_tracks, cols] <= thresh
    return matched_tracks[keep], cols[keep]


class EmbeddingTracker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.track_emb = torch.empty(0, cfg["emb_dim"])
        self.track_ids = []
        self.next_id = 0

    def start_tracks(self, det_emb):
        self.track_emb = torch.cat([self.track_emb, F.normalize(det_emb, dim=1)])
        self.track_ids += list(range(self.next_id, self.next_id + det_emb.size(0)))
        self.next_id += det_emb.size(0)

    def update(self, det_emb):
        cost = cosine_cost(self.track_emb, det_emb)
        trk, det = linear_assignment(cost, self.cfg["max_cost"])
        m = self.cfg["momentum"]
        smoothed = F.normalize(m * self.track_emb[trk] + (1 - m) * F.normalize(det_emb[det], dim=1), dim=1)
        self.track_emb = self.track_emb.index_copy(0, trk, smoothed)
        assigned = torch.full((det_emb.size(0),), -1, dtype=torch.long)
        assigned[det] = torch.tensor([self.track_ids[t] for t in trk.tolist()], dtype=torch.long)
        return assigned


def make_scene(cfg, num_people, seed):
    g = torch.Generator().manual_seed(seed)
    identities = F.normalize(torch.randn(num_people, cfg["emb_dim"], generator=g), dim=1)
    return identities, g


if __name__ == "__main__":
    identities, g = make_scene(CFG, num_people=6, seed=0)
    tracker = EmbeddingTracker(CFG)
    tracker.start_tracks(identities + 0.05 * torch.randn(6, CFG["emb_dim"], generator=g))
    visible = torch.tensor([5, 0, 3, 4])
    dets = identities[visible] + 0.05 * torch.randn(4, CFG["emb_dim"], generator=g)
    assigned = tracker.update(dets)
    print("true identities of the detections:", visible.tolist())
    print("track ids the tracker assigned:   ", assigned.tolist())
