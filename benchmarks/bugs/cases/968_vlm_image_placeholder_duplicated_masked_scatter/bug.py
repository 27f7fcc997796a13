import torch
import torch.nn as nn

CONFIG = {"vocab": ["<pad>", "<image>", "describe", "the", "picture", "what", "is", "shown", "\n"],
          "image_token_id": 1, "patches_per_image": 3, "hidden": 6, "patch_dim": 5}


def build_prompt(sample):
    return "<image> \n " + sample["question"]


def collate(samples, cfg):
    word_to_id = {w: i for i, w in enumerate(cfg["vocab"])}
    rows = []
    for s in samples:
        ids = []
        for w in build_prompt(s).split(" "):
            if w == "<image>":
                ids.extend([cfg["image_token_id"]] * cfg["patches_per_image"])
            elif w:
                ids.append(word_to_id[w])
        rows.append(ids)
    width = max(len(r) for r in rows)
    input_ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])
    pixel_patches = torch.stack([s["patches"] for s in samples])
    return input_ids, pixel_patches


class TinyVLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(len(cfg["vocab"]), cfg["hidden"])
        self.vision_proj = nn.Linear(cfg["patch_dim"], cfg["hidden"])

    def merge(self, input_ids, pixel_patches):
        inputs_embeds = self.embed_tokens(input_ids)
        image_features = self.vision_proj(pixel_patches).flatten(0, 1)
        image_mask = (input_ids == self.cfg["image_token_id"]).unsqueeze(-1).expand_as(inputs_embeds)
        return inputs_embeds.masked_scatter(image_mask, image_features)


def make_samples(cfg):
    gen = torch.Generator().manual_seed(0)
    qs = ["<image> describe the picture", "what is shown"]
    return [{"question": q, "patches": torch.randn(cfg["patches_per_image"], cfg["patch_dim"], generator=gen)} for q in qs]


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = make_samples(CONFIG)
    input_ids, patches = collate(samples, CONFIG)
    model = TinyVLM(CONFIG)
    merged = model.merge(input_ids, patches)
    print("merged:", tuple(merged.shape))
