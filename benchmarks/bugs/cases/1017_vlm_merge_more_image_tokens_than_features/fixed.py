import torch
import torch.nn as nn

CFG = {"vocab": 64, "hidden": 16, "patches_per_image": 6, "image_token_id": 63, "patch_dim": 12}


def tokenize(text, cfg, num_images):
    ids, used = [], 0
    for word in text.split():
        if word == "<image>" and used < num_images:
            used += 1
            ids.extend([cfg["image_token_id"]] * cfg["patches_per_image"])
        else:
            ids.append(sum(map(ord, word)) % (cfg["vocab"] - 1))
    return ids


class ConversationDataset(torch.utils.data.Dataset):
    def __init__(self, records, cfg):
        self.records, self.cfg = records, cfg

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        rec = self.records[i]
        text = " ".join(turn["value"] for turn in rec["conversations"])
        num_images = rec["patches"].shape[0] // self.cfg["patches_per_image"]
        return {"input_ids": torch.tensor(tokenize(text, self.cfg, num_images)), "pixel_values": rec["patches"]}


class TinyVLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.visual = nn.Linear(cfg["patch_dim"], cfg["hidden"])
        self.lm_head = nn.Linear(cfg["hidden"], cfg["vocab"])

    def merge(self, input_ids, pixel_values):
        inputs_embeds = self.embed_tokens(input_ids)
        image_features = self.visual(pixel_values)
        hidden = inputs_embeds.shape[-1]
        flat = inputs_embeds.reshape(-1, hidden).clone()
        image_pos = (input_ids.reshape(-1) == self.cfg["image_token_id"]).nonzero().squeeze(1)
        flat.scatter_(0, image_pos.unsqueeze(-1).expand(-1, hidden), image_features)
        return flat.view_as(inputs_embeds)

    def forward(self, input_ids, pixel_values):
        return self.lm_head(self.merge(input_ids, pixel_values))


if __name__ == "__main__":
    torch.manual_seed(0)
    records = [{
        "patches": torch.randn(CFG["patches_per_image"], CFG["patch_dim"]),
        "conversations": [
            {"from": "human", "value": "<image> What color is the bus ?"},
            {"from": "gpt", "value": "white and red"},
            {"from": "human", "value": "Look at the <image> again : is it moving ?"},
            {"from": "gpt", "value": "yes"},
        ],
    }]
    model = TinyVLM(CFG)
    sample = ConversationDataset(records, CFG)[0]
    ids = sample["input_ids"].unsqueeze(0)
    merged = model.merge(ids, sample["pixel_values"])
    feats = model.visual(sample["pixel_values"])
    text_emb = model.embed_tokens(ids)
    k = 0
    for t in range(ids.shape[1]):
        if int(ids[0, t]) == CFG["image_token_id"]:
            assert torch.allclose(merged[0, t], feats[k])
            k += 1
        else:
            assert torch.allclose(merged[0, t], text_emb[0, t])
    assert k == feats.shape[0]
    print("ok")
