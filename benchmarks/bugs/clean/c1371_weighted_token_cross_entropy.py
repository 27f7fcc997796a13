import torch
import torch.nn.functional as F


def weighted_token_nll(logits, labels, class_weight=None, ignore_index=-100, label_smoothing=0.0):
    # logits: [B, T, V]  labels: [B, T] with ignore_index on padding / prompt positions
    vocab = logits.size(-1)
    logits = logits.reshape(-1, vocab).float()  # [BT, V]
    labels = labels.reshape(-1)  # [BT]
    valid = labels != ignore_index  # [BT]
    safe_labels = labels.masked_fill(~valid, 0)  # [BT], always a legal row index
    logprobs = logits.log_softmax(dim=-1)  # [BT, V]
    nll = -logprobs.gather(1, safe_labels.unsqueeze(1)).squeeze(1)  # [BT]
    smooth = -logprobs.mean(dim=-1)  # [BT]
    per_token = (1.0 - label_smoothing) * nll + label_smoothing * smooth  # [BT]
    if class_weight is None:
        weights = valid.float()  # [BT]
    else:
        weights = class_weight.gather(0, safe_labels) * valid  # [BT]
    return (per_token * weights).sum() / weights.sum().clamp(min=1e-12)


def z_loss(logits, labels, ignore_index=-100, scale=1e-4):
    # logits: [B, T, V]  labels: [B, T]
    lse = torch.logsumexp(logits.float(), dim=-1)  # [B, T]
    valid = labels != ignore_index  # [B, T]
    return scale * (lse.pow(2) * valid).sum() / valid.sum().clamp(min=1)


def token_accuracy(logits, labels, ignore_index=-100):
    # logits: [B, T, V]  labels: [B, T]
    preds = logits.argmax(dim=-1)  # [B, T]
    valid = labels != ignore_index
    return ((preds == labels) & valid).sum().float() / valid.sum().clamp(min=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, V = 2, 8, 11
    logits = torch.randn(B, T, V)
    labels = torch.randint(0, V, (B, T))
    labels[0, :3] = -100
    labels[1, 6:] = -100
    w = torch.rand(V) + 0.5

    ours = weighted_token_nll(logits, labels, class_weight=w)
    ref = F.cross_entropy(logits.reshape(-1, V), labels.reshape(-1), weight=w, ignore_index=-100)
    assert torch.allclose(ours, ref, atol=1e-6)

    ours_ls = weighted_token_nll(logits, labels, label_smoothing=0.1)
    ref_ls = F.cross_entropy(logits.reshape(-1, V), labels.reshape(-1), ignore_index=-100, label_smoothing=0.1)
    assert torch.allclose(ours_ls, ref_ls, atol=1e-6)

    total, count = 0.0, 0
    for b in range(B):
        for t in range(T):
            if labels[b, t] != -100:
                total += float(torch.logsumexp(logits[b, t], dim=-1) ** 2)
                count += 1
    assert abs(z_loss(logits, labels).item() - 1e-4 * total / count) < 1e-7
    acc = token_accuracy(logits, labels)
    assert 0.0 <= acc.item() <= 1.0
    print("ok")
