import torch
import torch.nn as nn
import torch.nn.functional as F


def segment_max(values, segment_ids, num_segments):
    out = values.new_zeros(num_segments, values.size(-1))
    index = segment_ids.unsqueeze(-1).expand_as(values)
    return out.scatter_reduce(0, index, values, reduce="amax", include_self=False)


class MultiInstanceClassifier(nn.Module):
    """A bag is positive if at least one of its instances is: the bag log-probability
    is the max over the instance log-probabilities."""

    def __init__(self, cfg):
        super().__init__()
        self.scorer = nn.Sequential(nn.Linear(cfg["feat_dim"], cfg["hidden"]), nn.ReLU(),
                                    nn.Linear(cfg["hidden"], cfg["num_labels"]))

    def forward(self, instances, bag_ids, num_bags):
        inst_logp = F.logsigmoid(self.scorer(instances))
        return segment_max(inst_logp, bag_ids, num_bags)


def make_batch(cfg, gen):
    sizes = cfg["bag_sizes"]
    feats = torch.randn(sum(sizes), cfg["feat_dim"], generator=gen)
    bag_ids = torch.repeat_interleave(torch.arange(len(sizes)), torch.tensor(sizes))
    targets = torch.randint(0, 2, (len(sizes), cfg["num_labels"]), generator=gen).float()
    return feats, bag_ids, targets


if __name__ == "__main__":
    cfg = {"feat_dim": 12, "hidden": 32, "num_labels": 3, "bag_sizes": [3, 5, 2, 4]}
    gen = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    model = MultiInstanceClassifier(cfg)
    feats, bag_ids, targets = make_batch(cfg, gen)
    bag_logp = model(feats, bag_ids, len(cfg["bag_sizes"]))
    inst = F.logsigmoid(model.scorer(feats))
    for b in range(len(cfg["bag_sizes"])):
        for k in range(cfg["num_labels"]):
            ref = max(inst[i, k].item() for i in range(feats.size(0)) if int(bag_ids[i]) == b)
            assert abs(bag_logp[b, k].item() - ref) < 1e-6
    print("ok")
