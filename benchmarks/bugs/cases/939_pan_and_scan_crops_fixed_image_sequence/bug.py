import torch
import torch.nn as nn

BOI, SOFT, EOI = 70, 71, 72
MM_TOKENS = 4          # soft tokens per (sub-)image
HIDDEN, PATCH = 24, 10


def pan_and_scan(image, min_ratio=1.5):
    # image: [H, W, PATCH] -> list of views: the full image plus crops for wide images
    h, w, _ = image.shape
    views = [image]
    if w / h >= min_ratio:
        n = int(w // h)
        views += [image[:, i * h:(i + 1) * h] for i in range(n)]
    return views


def encode_views(views):
    # each view -> [MM_TOKENS, PATCH] by average pooling columns into MM_TOKENS bins
    out = []
    for v in views:
        cols = v.mean(0)                                   # [W, PATCH]
        bins = torch.tensor_split(cols, MM_TOKENS, dim=0)
        out.append(torch.stack([b.mean(0) for b in bins]))  # [MM_TOKENS, PATCH]
    return torch.stack(out)                               # [n_views, MM_TOKENS, PATCH]


class Gemma3StyleTemplate:
    full_image_sequence = [BOI] + [SOFT] * MM_TOKENS + [EOI]

    def encode(self, text_ids, images):
        input_ids, pixel_views = [], []
        for img in images:
            views = pan_and_scan(img)
            pixel_views.append(encode_views(views))
            input_ids += self.full_image_sequence
        input_ids += text_ids
        return torch.tensor(input_ids), torch.cat(pixel_views)   # [seq], [n_views, MM_TOKENS, PATCH]


def merge(inputs_embeds, input_ids, image_features):
    # inputs_embeds: [seq, HIDDEN]; image_features: [n_views * MM_TOKENS, HIDDEN]
    pos = (input_ids == SOFT).nonzero().squeeze(-1)                 # [n_soft]
    index = pos.unsqueeze(-1).expand(-1, inputs_embeds.size(-1))    # [n_soft, HIDDEN]
    return inputs_embeds.scatter(0, index, image_features)


if __name__ == "__main__":
    torch.manual_seed(0)
    embed = nn.Embedding(100, HIDDEN)
    projector = nn.Linear(PATCH, HIDDEN)
    images = [torch.randn(4, 12, PATCH), torch.randn(4, 4, PATCH)]   # wide panorama, square photo
    input_ids, views = Gemma3StyleTemplate().encode([5, 6, 7], images)
    with torch.no_grad():
        feats = projector(views).reshape(-1, HIDDEN)
        merged = merge(embed(input_ids), input_ids, feats)
    used = int((input_ids == SOFT).sum())
    print("image feature rows produced:", feats.size(0), " placed into the prompt:", used)
    print("merged", tuple(merged.shape))
