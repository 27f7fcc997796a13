import itertools

import torch
from torch import nn

CONFIG = {"vocab_size": 64, "dim": 16, "tokens_per_chunk": 3, "max_seqlen": 10}


class TinyVisionLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok_embeddings = nn.Embedding(cfg["vocab_size"], cfg["dim"])
        self.vision_projector = nn.Linear(cfg["dim"], cfg["dim"])

    def stitch_images_into_text(self, h_tok, h_img, image_pos_index, num_chunks, media_type):
        cumulative_indices = list(itertools.accumulate(num_chunks, initial=0))
        non_text_indices = [
            idx
            for start, end, m_type in zip(cumulative_indices[:-1], cumulative_indices[1:], media_type)
            if m_type != "text"
            for idx in range(start, end)
        ]
        img_indices_B, img_indices_L = torch.where(image_pos_index >= 0)
        valid_index_filter = img_indices_L < h_tok.shape[1]
        img_indices_L = img_indices_L[valid_index_filter]
        img_indices_B = img_indices_B[valid_index_filter]
        image_rows = h_img[non_text_indices].flatten(0, 1)
        # each placeholder stores which image row it receives; take exactly those rows
        row_ids = image_pos_index[img_indices_B, img_indices_L]
        h_tok[img_indices_B, img_indices_L] = image_rows[row_ids]
        return h_tok

    def embed(self, token_values, image_feats, image_pos_index, num_chunks, media_type):
        h = self.tok_embeddings(token_values)
        h_img = self.vision_projector(image_feats)
        return self.stitch_images_into_text(h, h_img, image_pos_index, num_chunks, media_type)


def build_batch(cfg):
    # sample 0: plain text (carries one dummy tile); sample 1: four tiles, but the prompt was
    # cut at max_seqlen so only the first 8 of its 12 image placeholders survived
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, cfg["vocab_size"], (2, cfg["max_seqlen"]), generator=g)
    image_pos_index = torch.full((2, cfg["max_seqlen"]), -1)
    image_pos_index[1, 2:10] = torch.arange(8)
    image_feats = torch.randn(5, cfg["tokens_per_chunk"], cfg["dim"], generator=g)
    return tokens, image_feats, image_pos_index, [1, 4], ["text", "multi_image"]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVisionLM(CONFIG)
    tokens, feats, pos_index, num_chunks, media_type = build_batch(CONFIG)
    with torch.no_grad():
        h = model.embed(tokens, feats, pos_index, num_chunks, media_type)
        text = model.tok_embeddings(tokens)
        proj = model.vision_projector(feats)
    rows = []
    for tile in range(1, 5):
        for t in range(CONFIG["tokens_per_chunk"]):
            rows.append(proj[tile, t])
    for b in range(2):
        for pos in range(CONFIG["max_seqlen"]):
            k = int(pos_index[b, pos])
            expected = text[b, pos] if k < 0 else rows[k]
            assert torch.allclose(h[b, pos], expected, atol=1e-6)
    print("ok")
