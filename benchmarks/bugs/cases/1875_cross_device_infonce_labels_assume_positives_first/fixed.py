import torch
import torch.nn as nn
import torch.nn.functional as F

LOSS_CONFIG = {"scale": 20.0, "world_size": 4, "per_device_batch": 3, "num_negatives": 2, "dim": 8}


class FakeProcessGroup:
    """Stands in for torch.distributed: every rank's local tensors are visible."""

    def __init__(self, world_size):
        self.world_size = world_size
        self.buffers = {}

    def post(self, name, rank, tensor):
        self.buffers.setdefault(name, [None] * self.world_size)[rank] = tensor

    def all_gather(self, name):
        return list(self.buffers[name])


def cos_sim(a, b):
    return F.normalize(a, dim=-1) @ F.normalize(b, dim=-1).T


class CrossDeviceRankingLoss(nn.Module):
    """In-batch negatives ranking loss with candidates shared across devices."""

    def __init__(self, cfg, group):
        super().__init__()
        self.scale = cfg["scale"]
        self.group = group

    def share(self, rank, columns):
        self.num_columns = len(columns)
        for j, column in enumerate(columns):
            self.group.post(f"column{j}", rank, column)

    def forward(self, rank, anchor):
        # gather column by column so all positives come first, then each negative column
        candidates = torch.cat(
            [torch.cat(self.group.all_gather(f"column{j}")) for j in range(self.num_columns)]
        )
        scores = cos_sim(anchor, candidates) * self.scale
        batch_size = anchor.size(0)
        offset = rank * batch_size
        range_labels = torch.arange(offset, offset + batch_size)
        return F.cross_entropy(scores, range_labels)


def make_batches(cfg):
    per_rank = []
    for _ in range(cfg["world_size"]):
        anchor = torch.randn(cfg["per_device_batch"], cfg["dim"])
        positive = anchor + 0.1 * torch.randn_like(anchor)
        negatives = [torch.randn_like(anchor) for _ in range(cfg["num_negatives"])]
        per_rank.append((anchor, [positive] + negatives))
    return per_rank


def run(cfg):
    group = FakeProcessGroup(cfg["world_size"])
    loss_fn = CrossDeviceRankingLoss(cfg, group)
    batches = make_batches(cfg)
    for rank, (_, columns) in enumerate(batches):
        loss_fn.share(rank, columns)
    return batches, [loss_fn(rank, anchor).item() for rank, (anchor, _) in enumerate(batches)]


def reference_losses(cfg, batches):
    positives = [cols[0][i] for _, cols in batches for i in range(cfg["per_device_batch"])]
    everything = [c[i] for _, cols in batches for c in cols for i in range(cfg["per_device_batch"])]
    out = []
    for rank, (anchor, _) in enumerate(batches):
        total = 0.0
        for i in range(cfg["per_device_batch"]):
            logits = [cfg["scale"] * F.cosine_similarity(anchor[i], c, dim=0).item() for c in everything]
            pos = cfg["scale"] * F.cosine_similarity(
                anchor[i], positives[rank * cfg["per_device_batch"] + i], dim=0
            ).item()
            total += torch.logsumexp(torch.tensor(logits), 0).item() - pos
        out.append(total / cfg["per_device_batch"])
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    batches, losses = run(LOSS_CONFIG)
    ref = reference_losses(LOSS_CONFIG, batches)
    assert all(abs(a - b) < 1e-4 for a, b in zip(losses, ref)), (losses, ref)
    print("ok")
