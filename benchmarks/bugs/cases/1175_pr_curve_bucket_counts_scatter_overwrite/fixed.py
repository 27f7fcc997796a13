import torch
from jaxtyping import Bool, Float, Int


def bucket_counts(
    predictions: Float[torch.Tensor, "n"],
    labels: Bool[torch.Tensor, "n"],
    num_thresholds: int,
) -> tuple[Float[torch.Tensor, "t"], Float[torch.Tensor, "t"]]:
    buckets: Int[torch.Tensor, "n"] = (predictions * (num_thresholds - 1)).floor().long()
    weights: Float[torch.Tensor, "n"] = torch.ones_like(predictions)
    tp = torch.zeros(num_thresholds).scatter_add_(0, buckets, weights * labels)
    fp = torch.zeros(num_thresholds).scatter_add_(0, buckets, weights * ~labels)
    return tp, fp


def pr_curve(
    predictions: Float[torch.Tensor, "n"],
    labels: Bool[torch.Tensor, "n"],
    num_thresholds: int = 11,
) -> Float[torch.Tensor, "6 t"]:
    tp_buckets, fp_buckets = bucket_counts(predictions, labels, num_thresholds)
    # counts at threshold i = everything in buckets >= i
    tp = tp_buckets.flip(0).cumsum(0).flip(0)
    fp = fp_buckets.flip(0).cumsum(0).flip(0)
    fn = labels.sum() - tp
    tn = (~labels).sum() - fp
    precision = tp / (tp + fp).clamp(min=1)
    recall = tp / (tp + fn).clamp(min=1)
    return torch.stack([tp, fp, tn, fn, precision, recall])


if __name__ == "__main__":
    torch.manual_seed(0)
    preds = torch.rand(200)
    labels = torch.rand(200) < preds
    curve = pr_curve(preds, labels)
    T = 11
    for i in range(T):
        tp = sum(1 for p, y in zip(preds.tolist(), labels.tolist()) if int(p * (T - 1)) >= i and y)
        fp = sum(1 for p, y in zip(preds.tolist(), labels.tolist()) if int(p * (T - 1)) >= i and not y)
        assert curve[0, i].item() == tp and curve[1, i].item() == fp
    print("ok")
