import torch
import torch.nn as nn
import torch.nn.functional as F


def ForCausalLMLoss(logits, labels, vocab_size, ignore_index=-100, shift_labels=None, **kwargs):
    logits = logits.float()
    if shift_labels is None:
        # shift so that tokens < n predict n
        labels = F.pad(labels, (0, 1), value=ignore_index)
        shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1).to(logits.device)
    return F.cross_entropy(logits, shift_labels, ignore_index=ignore_index, reduction="mean")


class GitConfig:
    def __init__(self, vocab_size=50, hidden_size=32, num_attention_heads=4, image_size=16, patch_size=8):
        self.vocab_size, self.hidden_size, self.num_attention_heads = vocab_size, hidden_size, num_attention_heads
        self.image_size, self.patch_size = image_size, patch_size


class GitModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.image_patch_tokens = (config.image_size // config.patch_size) ** 2
        self.patch_embed = nn.Conv2d(3, config.hidden_size, config.patch_size, stride=config.patch_size)
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layer = nn.TransformerEncoderLayer(config.hidden_size, config.num_attention_heads, 64, dropout=0.0, batch_first=True)

    def forward(self, input_ids, pixel_values):
        image_tokens = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        hidden = torch.cat([image_tokens, self.embed_tokens(input_ids)], dim=1)
        n_img, total = image_tokens.shape[1], hidden.shape[1]
        mask = torch.ones(total, total, dtype=torch.bool).triu(1)
        mask[:, :n_img] = False  # every position sees the whole image
        return self.layer(hidden, src_mask=mask)


class GitForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.git = GitModel(config)
        self.output = nn.Linear(config.hidden_size, config.vocab_size)
        self.loss_function = ForCausalLMLoss

    def forward(self, input_ids, pixel_values, labels=None):
        logits = self.output(self.git(input_ids, pixel_values))
        loss = None
        if labels is not None:
            # we are doing next-token prediction; shift prediction scores and input ids by one
            num_image_tokens = self.git.image_patch_tokens
            shifted_logits = logits[:, num_image_tokens:-1, :].contiguous()
            labels = labels[:, 1:].contiguous()
            loss = self.loss_function(
                shifted_logits,
                labels,
                vocab_size=self.config.vocab_size,
                shift_labels=labels,
            )
        return loss, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    config = GitConfig()
    model = GitForCausalLM(config).eval()
    pixel_values = torch.randn(2, 3, 16, 16)
    input_ids = torch.randint(1, 50, (2, 7))
    labels = input_ids.clone()
    labels[1, 5:] = -100
    with torch.no_grad():
        loss, logits = model(input_ids, pixel_values, labels=labels)
    n_img = model.git.image_patch_tokens
    terms = [
        -F.log_softmax(logits[b, n_img + t], dim=-1)[labels[b, t + 1]].item()
        for b in range(2) for t in range(6) if labels[b, t + 1] != -100
    ]
    print("caption loss:", round(loss.item(), 4), "next-token loss over the caption tokens:", round(sum(terms) / len(terms), 4))
    assert abs(loss.item() - sum(terms) / len(terms)) < 1e-5
    print("ok")
