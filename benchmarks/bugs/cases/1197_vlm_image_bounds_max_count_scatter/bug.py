import torch
import torch.nn as nn

IM_START, IM_END, UNK = 101, 102, 0
QUERY_NUM = 4


def build_prompt(num_images, text_len, max_length):
    ids = []
    for _ in range(num_images):
        ids += [7] * text_len + [IM_START] + [UNK] * QUERY_NUM + [IM_END]
    ids += [7] * text_len
    return torch.tensor(ids[:max_length])


def compute_image_bounds(input_ids):
    starts = torch.where(input_ids == IM_START)[0] + 1          # [n_start]
    ends = torch.where(input_ids == IM_END)[0]                  # [n_end]
    valid_image_nums = max(len(starts), len(ends))
    if len(ends) < valid_image_nums:                            # image cut by truncation
        pad = torch.full((valid_image_nums - len(ends),), input_ids.numel())
        ends = torch.cat([ends, pad])
    return torch.stack([starts[:valid_image_nums], ends[:valid_image_nums]], dim=1)  # [n_img, 2]


class TinyMiniCPMV(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.resampler = nn.Linear(12, QUERY_NUM * dim)

    def get_vllm_embedding(self, input_ids, pixel_feats, image_bound):
        cur_vllm_emb = self.embed_tokens(input_ids)                          # [L, D]
        dim = cur_vllm_emb.size(-1)
        vision_hidden = self.resampler(pixel_feats).view(-1, QUERY_NUM, dim)  # [n_img, Q, D]
        image_indices = torch.cat([torch.arange(s, e) for s, e in image_bound.tolist()])  # [n_img*Q]
        cur_vllm_emb = cur_vllm_emb.scatter(
            0, image_indices.view(-1, 1).repeat(1, dim), vision_hidden.reshape(-1, dim)
        )
        return cur_vllm_emb


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyMiniCPMV(vocab=128, dim=8)
    input_ids = build_prompt(num_images=3, text_len=3, max_length=26)
    image_bound = compute_image_bounds(input_ids)
    kept_images = int((input_ids == IM_END).sum())          # only complete images get pixels
    pixel_feats = torch.randn(kept_images, 12)
    emb = model.get_vllm_embedding(input_ids, pixel_feats, image_bound)
    print(emb.shape)
