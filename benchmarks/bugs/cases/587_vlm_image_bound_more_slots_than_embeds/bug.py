import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CFG = {"query_num": 8, "hidden": 32, "vocab": 100, "im_start": 3, "im_end": 4, "unk": 0,
       "max_slice_nums": 2, "slice_min_side": 448}


def get_slices(image, cfg):
    """Crop an image into sub-slices (only images larger than slice_min_side are sliced)."""
    h, w = image.shape[-2:]
    if max(h, w) <= cfg["slice_min_side"]:
        return []
    return [image[..., :, : w // 2], image[..., :, w // 2:]][: cfg["max_slice_nums"]]


def image_placeholder(cfg):
    return [cfg["im_start"]] + [cfg["unk"]] * cfg["query_num"] + [cfg["im_end"]]


class ChatImageDataset(Dataset):
    def __init__(self, samples, cfg):
        self.samples, self.cfg = samples, cfg

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        image, text_ids = self.samples[i]
        crops = [image] + get_slices(image, self.cfg)
        n_blocks = 1 + self.cfg["max_slice_nums"]
        ids = image_placeholder(self.cfg) * n_blocks + text_ids
        return {"input_ids": torch.tensor(ids), "pixel_values": torch.stack([c[..., :64, :64] for c in crops])}


def collate(batch):
    ids = torch.nn.utils.rnn.pad_sequence([b["input_ids"] for b in batch], batch_first=True, padding_value=1)
    bounds = []
    for row in ids:
        starts = (row == CFG["im_start"]).nonzero().view(-1) + 1
        ends = (row == CFG["im_end"]).nonzero().view(-1)
        bounds.append(torch.stack([starts, ends], 1))
    return {"input_ids": ids, "image_bound": bounds, "pixel_values": [b["pixel_values"] for b in batch]}


class TinyVLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.resampler = nn.Linear(3 * 64 * 64, cfg["query_num"] * cfg["hidden"])
        self.cfg = cfg

    def get_vllm_embedding(self, batch):
        vllm_emb = self.embed(batch["input_ids"])
        for i, cur_vllm_emb in enumerate(vllm_emb):
            pixels = batch["pixel_values"][i]
            image_embeds = self.resampler(pixels.flatten(1)).view(len(pixels), self.cfg["query_num"], -1)
            bound = batch["image_bound"][i]
            image_indices = torch.stack([torch.arange(s, e) for s, e in bound.tolist()])
            cur_vllm_emb.scatter_(0, image_indices.view(-1, 1).repeat(1, cur_vllm_emb.shape[-1]),
                                  image_embeds.view(-1, image_embeds.shape[-1]))
        return vllm_emb


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [(torch.rand(3, 336, 336), [10, 11, 12]), (torch.rand(3, 672, 896), [13, 14])]
    loader = DataLoader(ChatImageDataset(samples, CFG), batch_size=2, collate_fn=collate)
    model = TinyVLM(CFG)
    with torch.no_grad():
        for batch in loader:
            emb = model.get_vllm_embedding(batch)
            print("inputs_embeds", tuple(emb.shape))
