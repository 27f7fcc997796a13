import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.Linear(hidden_size, hidden_size)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids).cumsum(dim=1)
        return torch.tanh(self.mix(h))


class ForSequenceClassification(nn.Module):
    def __init__(self, vocab_size, hidden_size, num_labels, pad_token_id):
        super().__init__()
        self.model = TinyDecoder(vocab_size, hidden_size)
        self.score = nn.Linear(hidden_size, num_labels, bias=False)
        self.pad_token_id = pad_token_id

    def forward(self, input_ids):
        """
        Args:
            input_ids (`torch.LongTensor` of shape `(batch_size, sequence_length)`):
                Right-padded token ids; padding uses `pad_token_id`.

        Returns:
            `torch.FloatTensor` of shape `(batch_size, num_labels)`: logits of the last non-padding token.
        """
        hidden_states = self.model(input_ids)
        logits = self.score(hidden_states)
        batch_size = input_ids.shape[0]
        non_pad_mask = (input_ids != self.pad_token_id).int()
        sequence_lengths = (torch.arange(input_ids.shape[-1]) * non_pad_mask).argmax(-1)
        pooled_logits = logits[torch.arange(batch_size), sequence_lengths]
        return pooled_logits, logits


if __name__ == "__main__":
    torch.manual_seed(0)
    bos, eot = 1, 2
    model = ForSequenceClassification(vocab_size=64, hidden_size=32, num_labels=1, pad_token_id=eot)
    chats = [
        [bos, 10, 11, 12, eot, 20, 21, 22, 23, eot],
        [bos, 13, 14, eot, 24, 25, eot],
    ]
    width = max(len(c) for c in chats) + 2
    input_ids = torch.tensor([c + [eot] * (width - len(c)) for c in chats])

    rewards, logits = model(input_ids)

    for b, chat in enumerate(chats):
        last = max(i for i, t in enumerate(input_ids[b].tolist()) if t != eot)
        ref = logits[b, last].item()
        assert abs(rewards[b].item() - ref) < 1e-6, (b, rewards[b].item(), ref)
    print("ok")
