import torch
import torch.nn as nn


class SlotCTRModel(nn.Module):
    def __init__(self, n_users, n_ads, n_slots, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.ad = nn.Embedding(n_ads, dim)
        self.slot_bias = nn.Linear(dim, n_slots)

    def forward(self, user_ids, ad_ids):
        h = self.user(user_ids) * self.ad(ad_ids)
        return self.slot_bias(h)


class CTRTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.criterion = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, user_ids, ad_ids, shown_slot, clicked):
        slot_logits = self.model(user_ids, ad_ids)
        shown_logit = slot_logits.gather(1, shown_slot.unsqueeze(1))
        loss = self.criterion(shown_logit, clicked)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SlotCTRModel(n_users=100, n_ads=50, n_slots=6, dim=16)
    trainer = CTRTrainer(model)
    users = torch.randint(0, 100, (256,))
    ads = torch.randint(0, 50, (256,))
    slots = torch.randint(0, 6, (256,))
    clicks = torch.bernoulli(torch.full((256,), 0.1))
    for epoch in range(3):
        print("epoch", epoch, "loss", trainer.step(users, ads, slots, clicks))
