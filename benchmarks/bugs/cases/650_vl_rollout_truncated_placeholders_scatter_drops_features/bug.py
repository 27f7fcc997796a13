import torch
import torch.nn as nn

IMAGE_PAD = 151655
HIDDEN = 16


def build_prompt(history_len, num_image_tokens, question_len, max_prompt_length):
    history = list(range(100, 100 + history_len))
    question = list(range(300, 300 + question_len))
    ids = history + [IMAGE_PAD] * num_image_tokens + question
    return ids[:max_prompt_length]


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
        last_sample_first_image_row = out[len(prompts[0]) + len(prompts[1]) + 5]
        expected = model.visual(image_patches[2][0])
    print("placeholders:", sum(p.count(IMAGE_PAD) for p in prompts), "image embeddings:", sum(n for _, n, _ in rollout))
    print("third sample gets its own first patch:", torch.allclose(last_sample_first_image_row, expected))
