import torch
import torch.nn as nn


class EventBucketizer(nn.Module):
    """Turns irregularly timed events into a regular series of per-bucket totals."""

    def __init__(self, horizon_s, n_buckets):
        super().__init__()
        self.bucket_s = horizon_s / n_buckets
        self.n_buckets = n_buckets

    def forward(self, event_times, event_values):
        bucket = (event_times / self.bucket_s).floor().long().clamp_(0, self.n_buckets - 1)
        totals = torch.zeros(event_times.shape[0], self.n_buckets, dtype=event_values.dtype)
        totals.scatter_add_(1, bucket, event_values)
        return totals


class DemandForecaster(nn.Module):
    def __init__(self, n_buckets, horizon):
        super().__init__()
        self.bucketize = EventBucketizer(horizon_s=3600.0, n_buckets=n_buckets)
        self.head = nn.Sequential(nn.Linear(n_buckets, 64), nn.GELU(), nn.Linear(64, horizon))

    def forward(self, event_times, event_values):
        series = self.bucketize(event_times, event_values)
        return self.head(torch.log1p(series)), series


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DemandForecaster(n_buckets=12, horizon=4)
    times = torch.sort(torch.rand(8, 50) * 3600.0, dim=1).values
    amounts = torch.rand(8, 50) * 10.0
    _, series = model(times, amounts)
    ref = torch.zeros(8, 12)
    for b in range(8):
        for i in range(50):
            k = min(int(times[b, i].item() // 300.0), 11)
            ref[b, k] += amounts[b, i]
    assert torch.allclose(series, ref, atol=1e-4)
    print("ok")
