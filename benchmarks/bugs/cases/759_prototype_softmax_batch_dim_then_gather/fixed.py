import torch
import torch.nn as nn
import torch.nn.functional as F


class PrototypeHead(nn.Module):
    """Scores utterance embeddings against learnable intent prototypes.

    Args:
        dim (`int`): embedding size.
        num_prototypes (`int`): number of intent prototypes K.
        temperature (`float`): softmax temperature.
    """

    def __init__(self, dim, num_prototypes, temperature=0.1):
        super().__init__()
        self.prototypes = nn.Parameter(torch.randn(num_prototypes, dim))
        self.temperature = temperature

    def forward(self, feats):
        """
        Args:
            feats (`torch.FloatTensor` of shape `(batch_size, dim)`): sentence embeddings.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_prototypes)`: cosine logits.
        """
        return F.normalize(feats, dim=-1) @ F.normalize(self.prototypes, dim=-1).t() / self.temperature


def confident_pseudo_labels(logits, pseudo_labels, threshold=0.5):
    """
    Args:
        logits (`torch.FloatTensor` of shape `(batch_size, num_prototypes)`).
        pseudo_labels (`torch.LongTensor` of shape `(batch_size,)`): cluster ids from k-means.

    Returns:
        confidence of each sample's pseudo label `(batch_size,)` and the keep mask.
    """
    probs = F.softmax(logits, dim=1)
    conf = probs.gather(1, pseudo_labels.unsqueeze(1)).squeeze(1)
    return conf, conf > threshold


if __name__ == "__main__":
    torch.manual_seed(0)
    head = PrototypeHead(dim=16, num_prototypes=5)
    feats = torch.randn(12, 16)
    with torch.no_grad():
        logits = head(feats)
        pseudo = logits.argmax(dim=1)
        conf, keep = confident_pseudo_labels(logits, pseudo)
    import math
    for i in range(logits.shape[0]):
        row = [math.exp(float(v)) for v in logits[i]]
        ref = row[int(pseudo[i])] / sum(row)
        assert abs(float(conf[i]) - ref) < 1e-5
        assert bool(keep[i]) == (ref > 0.5)
    print("ok")
