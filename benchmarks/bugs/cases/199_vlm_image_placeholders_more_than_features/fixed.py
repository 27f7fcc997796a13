import torch
import torch.nn as nn

IMAGE_TOKEN = 3
QUERY_NUM = 4  # learned queries per image slice


class SlicePreprocessor:
    def __init__(self, max_slice_nums):
        self.max_slice_nums = max_slice_nums

    def slices(self, image):
        # the overview image plus a 2x1 split of it, capped at max_slice_nums
        h = image.size(1) // 2
        parts = [image, image[:, :h], image[:, h:]]
        return parts[: self.max_slice_nums]

    def prompt_ids(self, text_ids, image):
        n_slices = len(self.slices(image))  # one placeholder block per slice actually encoded
        placeholders = torch.full((n_slices * QUERY_NUM,), IMAGE_TOKEN)
        return torch.cat([text_ids[:2], placeholders, text_ids[2:]])


class Resampler(nn.Module):
    def __init__(self, patch_dim, hidden):
        super().__init__()
        self.queries = nn.Parameter(torch.randn(QUERY_NUM, hidden))
        self.proj = nn.Linear(patch_dim, hidden)

    def forward(self, image_slice):
        patches = self.proj(image_slice.flatten(1).t())
        attn = torch.softmax(self.queries @ patches.t(), dim=-1)
        return attn @ patches


class TinyVLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(32, 8)
        self.resampler = Resampler(patch_dim=3, hidden=8)

    def get_vllm_embedding(self, input_ids, slices):
        cur_emb = self.embed_tokens(input_ids)
        vision_hidden = torch.cat([self.resampler(s) for s in slices], dim=0)
        image_indices = (input_ids == IMAGE_TOKEN).nonzero().squeeze(-1)
        cur_emb = cur_emb.scatter(0, image_indices.view(-1, 1).repeat(1, cur_emb.shape[-1]), vision_hidden)
        return cur_emb


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyVLM()
    processor = SlicePreprocessor(max_slice_nums=1)
    image = torch.randn(3, 4, 4)
    text_ids = torch.tensor([1, 7, 9, 12, 5, 2])
    input_ids = processor.prompt_ids(text_ids, image)
    emb = model.get_vllm_embedding(input_ids, processor.slices(image))
    with torch.no_grad():
        feats = torch.cat([model.resampler(s) for s in processor.slices(image)], dim=0)
        k = 0
        for pos, tok in enumerate(input_ids.tolist()):
            if tok == IMAGE_TOKEN:
                assert torch.allclose(emb[pos], feats[k])
                k += 1
            else:
                assert torch.equal(emb[pos], model.embed_tokens.weight[tok])
        assert k == feats.size(0)
    print("ok")
