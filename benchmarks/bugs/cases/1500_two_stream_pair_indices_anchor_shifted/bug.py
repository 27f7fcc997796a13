import torch
import torch.nn as nn
import torch.nn.functional as F


def get_all_pairs_indices(labels, ref_labels):
    """Positive and negative pairs between a set of anchors and a reference set."""
    matches = labels.unsqueeze(1) == ref_labels.unsqueeze(0)
    a1, p = torch.where(matches)
    a2, n = torch.where(~matches)
    return a1, p, a2, n


def shift_indices_tuple(indices_tuple, batch_size):
    """The reference half of the tuple points into the second stream, after the anchors."""
    return (indices_tuple[0],) + tuple(x + batch_size for x in indices_tuple[1:])


class ContrastiveLoss(nn.Module):
    def __init__(self, pos_margin, neg_margin):
        super().__init__()
        self.pos_margin = pos_margin
        self.neg_margin = neg_margin

    def forward(self, embeddings, indices_tuple):
        a1, p, a2, n = indices_tuple
        emb = F.normalize(embeddings, dim=1)
        pos_dist = (emb.index_select(0, a1) - emb.index_select(0, p)).norm(dim=1)
        neg_dist = (emb.index_select(0, a2) - emb.index_select(0, n)).norm(dim=1)
        pos_loss = F.relu(pos_dist - self.pos_margin)
        neg_loss = F.relu(self.neg_margin - neg_dist)
        return pos_loss.mean() + neg_loss.mean()


class TwoStreamMetricLoss:
    """Anchors come from one encoder, positives/negatives from the other."""

    def __init__(self, config):
        self.anchor_model = nn.Linear(config["in_dim"], config["embed_dim"])
        self.posneg_model = nn.Linear(config["in_dim"], config["embed_dim"])
        self.loss_fn = ContrastiveLoss(config["pos_margin"], config["neg_margin"])

    def compute_loss(self, anchors, posnegs, labels):
        anchor_emb = self.anchor_model(anchors)
        posneg_emb = self.posneg_model(posnegs)
        indices_tuple = get_all_pairs_indices(labels, labels)
        indices_tuple = shift_indices_tuple(indices_tuple, anchor_emb.size(0))
        all_embeddings = torch.cat([anchor_emb, posneg_emb])
        return self.loss_fn(all_embeddings, indices_tuple)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"in_dim": 24, "embed_dim": 16, "pos_margin": 0.0, "neg_margin": 1.2, "batch_size": 12, "classes": 4}
    trainer = TwoStreamMetricLoss(config)
    labels = torch.randint(0, config["classes"], (config["batch_size"],))
    anchors = torch.randn(config["batch_size"], config["in_dim"])
    posnegs = anchors + 0.1 * torch.randn_like(anchors)
    with torch.no_grad():
        loss = trainer.compute_loss(anchors, posnegs, labels)
        a = F.normalize(trainer.anchor_model(anchors), dim=1)
        b = F.normalize(trainer.posneg_model(posnegs), dim=1)
        pos, neg = [], []
        for i in range(len(labels)):
            for j in range(len(labels)):
                d = (a[i] - b[j]).norm().item()
                if labels[i] == labels[j]:
                    pos.append(max(d - config["pos_margin"], 0.0))
                else:
                    neg.append(max(config["neg_margin"] - d, 0.0))
        ref = sum(pos) / len(pos) + sum(neg) / len(neg)
        pairs = shift_indices_tuple(get_all_pairs_indices(labels, labels), len(labels))
    print("two-stream loss:", round(loss.item(), 5), "anchor-vs-second-stream reference:", round(ref, 5))
    print("negative-pair anchors taken from the second stream:", int((pairs[2] >= len(labels)).sum()), "of", len(pairs[2]))
