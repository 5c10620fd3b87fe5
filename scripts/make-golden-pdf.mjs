// Writes evals/corpus/on-call-checklist.pdf deterministically (pdf-lib, standard fonts).
// Run: node scripts/make-golden-pdf.mjs
import { writeFileSync } from "node:fs";
import { PDFDocument, StandardFonts } from "pdf-lib";

const pages = [
  [
    "On-call checklist",
    "",
    "Before your shift starts, confirm that the paging app rings on your phone",
    "by sending yourself a test page. A silent phone is the most common reason",
    "an alert goes unanswered, and it is invisible until the night it matters.",
    "",
    "Read the handover note from the previous engineer. It lists open incidents,",
    "changes that are still rolling out, and anything that looked odd but did not",
    "page. Ask questions while the previous engineer is still awake.",
    "",
    "Check that your laptop can reach the bastion host and that your hardware",
    "key is with you. Access requests take hours to approve at night, so a",
    "missing key turns a ten minute fix into a long wait.",
    "",
    "Open the main dashboard once and look at the last seven days. Knowing what",
    "normal looks like makes an abnormal graph obvious at three in the morning.",
  ],
  [
    "During the shift",
    "",
    "Acknowledge every page within five minutes, even if you cannot act on it",
    "yet. Acknowledging stops the escalation to the secondary engineer and tells",
    "the team that someone is looking.",
    "",
    "Write down what you see and what you try in the incident channel as you go.",
    "Short notes with timestamps are enough. The notes become the timeline of the",
    "review and save everyone from reconstructing the night from memory.",
    "",
    "If a problem is bigger than you, escalate early. Waking a colleague for a",
    "false alarm costs one night of sleep; handling a real outage alone for an",
    "hour costs much more. Nobody is blamed for escalating.",
    "",
    "Avoid risky changes outside business hours. Roll back first, investigate",
    "later: restoring the previous release is almost always safer than a new fix",
    "written under pressure.",
  ],
  [
    "Ending the shift",
    "",
    "Update the handover note with anything the next engineer needs: incidents",
    "still open, follow-up tickets you filed, and alerts that fired more often",
    "than expected. Noisy alerts deserve a ticket so they are tuned, not ignored.",
    "",
    "Return borrowed access. Temporary privileges granted during an incident are",
    "revoked at the end of the shift, and the access review the next morning",
    "checks that they were.",
    "",
    "Finally, rest. Fatigue makes the next shift worse for everyone, so take the",
    "recovery time you are owed after a night with pages.",
    "",
    "Once a month the on-call group meets for thirty minutes to look at the pages",
    "of the previous weeks. Each alert that woke someone up must either point at",
    "a real problem or be changed; the group decides which, and the owner of the",
    "alert makes the change before the next rotation begins.",
  ],
];

const doc = await PDFDocument.create();
const fixed = new Date(Date.UTC(2026, 0, 1));
doc.setCreationDate(fixed);
doc.setModificationDate(fixed);
doc.setTitle("On-call checklist");
const font = await doc.embedFont(StandardFonts.Helvetica);
for (const lines of pages) {
  const page = doc.addPage([612, 792]);
  let y = 740;
  for (const line of lines) {
    if (line) page.drawText(line, { x: 56, y, size: 11, font });
    y -= 18;
  }
}
writeFileSync(new URL("../evals/corpus/on-call-checklist.pdf", import.meta.url), await doc.save({ useObjectStreams: false }));
