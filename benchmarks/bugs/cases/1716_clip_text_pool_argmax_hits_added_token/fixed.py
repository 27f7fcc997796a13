import torch
import torch.nn as nn


class CLIPTextTransformer(nn.Module):
    def __init__(self, vocab_size, hidden_size, max_position_embeddings, eos_token_id):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, hidden_size)
        self.position_embedding = nn.Embedding(max_position_embeddings, hidden_size)
        self.mixer = nn.Linear(hidden_size, hidden_size)
        self.final_layer_norm = nn.LayerNorm(hidden_size)
        self.eos_token_id = eos_token_id

    def resize_token_embeddings(self, new_num_tokens):
        old = self.token_embedding
        new = nn.Embedding(new_num_tokens, old.embedding_dim)
        with torch.no_grad():
            new.weight[: old.num_embeddings] = old.weight
        self.token_embedding = new

    def forward(self, input_ids):
        seq_len = input_ids.shape[-1]
        position_ids = torch.arange(seq_len, device=input_ids.device)
        hidden_states = self.token_embedding(input_ids) + self.position_embedding(position_ids)
        # causal token mixing: every position only sees itself and its prefix
        steps = torch.arange(1, seq_len + 1, device=input_ids.device).view(1, -1, 1)
        hidden_states = torch.cumsum(hidden_states, dim=1) / steps
        last_hidden_state = self.final_layer_norm(self.mixer(hidden_states))

        # take features from the first eos token of each sequence (added tokens may have larger ids)
        batch_index = torch.arange(last_hidden_state.shape[0], device=last_hidden_state.device)
        pooled_output = last_hidden_state[batch_index, (input_ids == self.eos_token_id).int().argmax(dim=-1)]
        return last_hidden_state, pooled_output


def encode_prompts(token_lists, bos, eos, context_length):
    rows = []
    for tokens in token_lists:
        ids = [bos] + tokens + [eos]
        rows.append(ids + [eos] * (context_length - len(ids)))
    return torch.tensor(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    bos, eos = 49406, 49407
    text_model = CLIPTextTransformer(49408, 32, 77, eos_token_id=eos)

    # textual inversion: two placeholder tokens are appended to the tokenizer and the embedding table
    placeholder_ids = [49408, 49409]
    text_model.resize_token_embeddings(49408 + len(placeholder_ids))

    prompts = [
        [320, 1125, 539, 49408],            # "a photo of <cat-toy>"
        [320, 49409, 3365, 530, 518, 2870],  # "a <wooden-pot> sitting on the table"
        [320, 1125, 539, 320, 1929],        # "a photo of a dog"
    ]
    input_ids = encode_prompts(prompts, bos, eos, context_length=16)

    with torch.no_grad():
        last_hidden_state, pooled = text_model(input_ids)
        eos_pos = [row.tolist().index(eos) for row in input_ids]
        ref = torch.stack([last_hidden_state[b, p] for b, p in enumerate(eos_pos)])

    assert torch.allclose(pooled, ref), (pooled - ref).abs().max()
    print("ok")
