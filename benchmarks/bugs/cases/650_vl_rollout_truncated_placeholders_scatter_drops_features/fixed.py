import torch
import torch.nn as nn

IMAGE_PAD = 151655
HIDDEN = 16


def build_prompt(history_len, num_image_tokens, question_len, max_prompt_length):
    history = list(range(100, 100 + history_len))
    question = list(range(300, 300 + question_len))
    overflow = len(history) + num_image_tokens + len(question) - max_prompt_length
    if overflow > len(history):
        raise ValueError("prompt does not fit without cutting image tokens")
    if overflow > 0:
        history = history[overflow:]
    return history + [IMAGE_PAD] * num_image_tokens + question


class ToyVLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(160000, HIDDEN)
        self.visual = nn.Linear(8, HIDDEN)

    def get_input_embeddings(self, input_ids, patches):
        # input_ids: [T] packed prompts of the whole rollout batch
        # patches: [P, 8] patches of every image, in prompt order
        embeds = self.embed(input_ids)  # [T, HIDDEN]
        image_embeds = self.visual(patches)  # [P, HIDDEN]
        pos = (input_ids == IMAGE_PAD).nonzero().squeeze(-1)  # [num_placeholders]
        index = pos.unsqueeze(-1).expand(-1, HIDDEN)
        return embeds.scatter(0, index, image_embeds)


if __name__ == "__main__":
    torch.manual_seed(0)
    rollout = [(10, 12, 6), (40, 20, 6), (5, 9, 6)]  # (history, image tokens, question) per sample
    max_prompt_length = 48
    prompts = [build_prompt(h, n, q, max_prompt_length) for h, n, q in rollout]
    image_patches = [torch.randn(n, 8) for _, n, _ in rollout]
    model = ToyVLM()
    with torch.no_grad():
        out = model.get_input_embeddings(torch.tensor(sum(prompts, [])), torch.cat(image_patches))
        flat = sum(prompts, [])
        feats = model.visual(torch.cat(image_patches))
        k = 0
        for t, tok in enumerate(flat):
            if tok == IMAGE_PAD:
                assert torch.allclose(out[t], feats[k])
                k += 1
            else:
                assert torch.allclose(out[t], model.embed.weight[tok])
        assert k == feats.size(0)
        assert all(len(p) <= max_prompt_length for p in prompts)
    print("ok")
