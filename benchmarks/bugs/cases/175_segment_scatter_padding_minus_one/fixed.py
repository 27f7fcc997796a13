import torch


def segment_sum(data, segment_ids, num_segments):
    out = data.new_zeros(data.size(0), num_segments, data.size(2))
    index = segment_ids.unsqueeze(-1).expand_as(data)
    return out.scatter_add_(1, index, data)


def batched_segment_mean(data, segment_ids, padding, num_segments):
    segment_ids = torch.where(padding == 1, torch.full_like(segment_ids, num_segments), segment_ids)
    sums = segment_sum(data, segment_ids, num_segments + 1)[:, :num_segments]
    ones = torch.ones_like(data[..., :1])
    counts = segment_sum(ones, segment_ids, num_segments + 1)[:, :num_segments]
    return sums / counts.clamp(min=1)


def make_batch(cfg):
    data = torch.randn(cfg["batch"], cfg["length"], cfg["dim"])
    segment_ids = torch.randint(0, cfg["segments"], (cfg["batch"], cfg["length"]))
    lengths = torch.tensor(cfg["lengths"])
    padding = (torch.arange(cfg["length"])[None, :] >= lengths[:, None]).long()
    return data, segment_ids, padding


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"batch": 2, "length": 10, "dim": 3, "segments": 4, "lengths": [10, 6]}
    data, segment_ids, padding = make_batch(cfg)
    mean = batched_segment_mean(data, segment_ids, padding, cfg["segments"])
    for b in range(cfg["batch"]):
        for s in range(cfg["segments"]):
            rows = [data[b, t] for t in range(cfg["lengths"][b]) if segment_ids[b, t] == s]
            ref = torch.stack(rows).mean(0) if rows else torch.zeros(cfg["dim"])
            assert torch.allclose(mean[b, s], ref, atol=1e-6)
    print("ok")
