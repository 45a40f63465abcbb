//! The words around a name that say what it names: closed classes of English (greetings
//! and interjections, kinship and pet nouns, verbs of reading, playing and travelling)
//! checked by [`super::classify`]. No names here: the rules must hold for any text.

use super::text::listed;

/// Words that open a sentence before a name without being part of it ("Woohoo
/// Melanie", "Anytime Nate", "Remember Jon", "Bet Max"): interjections, greetings and
/// the imperatives people address each other with.
const LEADS: &str = "woohoo woo wooo hoo yay yippee hooray hurray woah whoa wow aww aw awww \
    ooh oh ah aha yo hey heya hi hiya hello howdy anytime bet omg lol haha hahaha hehe ugh \
    yikes geez gosh jeez dang damn phew oops whoops yeah yup yep nah wait remember congrats \
    congratulations cheers thanks thank thx ty sorry welcome morning evening night goodnight \
    bye love dude bro sis sweet cool nice great awesome amazing wonderful lovely good exactly \
    totally absolutely sure okay ok alright right well so wishing happy dear ask tell meet say \
    call text invite message ping wish give send hug tag greetings hugs kudos props shoutout \
    ayy ayyy yess yes no hmm um uh er honestly seriously anyway btw also plus";

/// A capitalised word that opens a sentence before a name but is not part of it,
/// stretched or not ("Wowww", "Heyyy", "Sooo").
pub fn is_lead(word: &str) -> bool {
    listed(word, LEADS) || listed(&squeeze(word, 1), LEADS) || listed(&squeeze(word, 2), LEADS)
}

/// `word` with every run of a repeated letter cut to `max`.
fn squeeze(word: &str, max: usize) -> String {
    let mut out = String::new();
    let mut run = 0;
    let mut last = None;
    for c in word.chars() {
        run = if Some(c) == last { run + 1 } else { 1 };
        last = Some(c);
        if run <= max {
            out.push(c);
        }
    }
    out
}

/// Nouns after which a name is a person ("my friend Sam", "her boss, Dana").
const RELATIONS: &str = "friend friends buddy pal bestie bff sister sisters brother brothers \
    sibling mom mum mother dad father parent son daughter kid kids child wife husband spouse \
    partner boyfriend girlfriend fiance fiancee fiancé fiancée cousin aunt auntie uncle niece \
    nephew grandma grandpa granny grandmother grandfather grandson granddaughter boss manager \
    colleague coworker co-worker teammate roommate flatmate housemate neighbor neighbour mentor \
    mentee teacher coach classmate therapist doctor nurse tutor student intern assistant \
    landlord recruiter";

pub fn is_relation(word: &str) -> bool {
    listed(word, RELATIONS)
}

/// Nouns after which a name is a pet's ("my dog Max", "a kitten named Luna").
const PETS: &str = "dog dogs doggo doggy pup puppy puppies cat cats kitty kitten kittens pet \
    pets hamster parrot bird budgie rabbit bunny horse pony turtle tortoise pig lizard snake \
    goldfish fish ferret gecko chinchilla hedgehog";

pub fn is_pet_noun(word: &str) -> bool {
    listed(word, PETS)
}

/// Nouns before a name (often in apposition) that make it an organisation ("the
/// recruiting agency, Talentbridge", "our vendor Acme").
const ORG_NOUNS: &str = "company companies firm startup start-up agency vendor supplier \
    employer competitor brand charity nonprofit non-profit nonprofit organisation organization \
    lab manufacturer retailer publisher distributor contractor subcontractor consultancy bakery \
    restaurant cafe café shop store gym hospital clinic school university college church";

pub fn is_org_noun(word: &str) -> bool {
    listed(word, ORG_NOUNS)
}

/// Nouns right after a name that make it a product ("the Atlas beta", "the Nimbus app").
const PRODUCT_AFTER: &str = "beta app apps release releases version versions api sdk platform \
    plugin dashboard feature features rollout integration firmware";

pub fn is_product_noun(word: &str) -> bool {
    listed(word, PRODUCT_AFTER)
}

/// Verbs of caring for an animal before its name ("walked Max", "fed Luna").
const PET_CARE: &str = "walk walked walking walks feed fed feeding feeds groom groomed \
    grooming rescued pet petting";

/// Verbs only animals do, after the name ("Max barked", "Luna purrs").
const PET_DOES: &str = "barked barks barking meowed meows meowing purred purrs purring \
    wagged wags chewed chews sniffed sniffs fetched fetches growled growls howled";

/// Where people take animals: "took Max to the vet".
const PET_PLACES: &str = "vet vets groomer groomers kennel kennels";

pub fn is_pet_care(word: &str) -> bool {
    listed(word, PET_CARE)
}

pub fn is_pet_act(word: &str) -> bool {
    listed(word, PET_DOES)
}

pub fn is_pet_place(word: &str) -> bool {
    listed(word, PET_PLACES)
}

/// Nouns naming a kind of work, before "called"/"named" or after a title ("the Harry
/// Potter books", "a game called Apex Legends").
const WORKS: &str = "book books novel novels series movie movies film films game games show \
    shows album albums song songs soundtrack franchise saga trilogy season seasons episode \
    episodes fandom musical comic comics podcast podcasts manga anime play poem poems painting \
    documentary sitcom audiobook";

pub fn is_work_noun(word: &str) -> bool {
    listed(word, WORKS)
}

/// Verbs after which a capitalised name is a work ("reading Dune", "playing Apex
/// Legends", "watched Inception").
const WORK_VERBS: &str = "reading read reads reread rereading watching watched watch watches \
    rewatching rewatched playing played play plays binge binged binging bingeing streaming \
    finished finishing recommend recommended";

pub fn is_work_verb(word: &str) -> bool {
    listed(word, WORK_VERBS)
}

/// Verbs before "to X" that make X music or a podcast ("listened to Rumours").
pub fn is_listening(word: &str) -> bool {
    listed(word, "listen listens listened listening")
}

/// Words after which "to X" is a place ("moved to Denver", "a trip to Lisbon").
const TRAVEL: &str = "moved move moving moves trip trips went go going goes gone flew fly \
    flying drove drive driving travel travelled traveled traveling travelling visit back \
    relocate relocated relocating headed heading vacation holiday holidays getaway honeymoon \
    roadtrip journey cruise commute welcome been";

pub fn is_travel(word: &str) -> bool {
    listed(word, TRAVEL)
}

/// Words right before a name that make it a place ("visited Lisbon", "near Denver").
const PLACE_BEFORE: &str = "visited visiting explore explored exploring near around across \
    throughout outside downtown";

pub fn is_place_before(word: &str) -> bool {
    listed(word, PLACE_BEFORE)
}

/// Words before "from X" that make X a place ("I'm from Sweden", "came back from Lisbon").
const ORIGIN: &str = "i'm am is are was were originally come came comes born back grew home \
    flew drove moved";

pub fn is_origin(word: &str) -> bool {
    listed(word, ORIGIN)
}

/// Verbs that follow a person as their subject ("Melanie went", "Nate laughed").
const SUBJECT_VERBS: &str = "said says told asked thinks thought mentioned wants wanted wrote \
    replied suggested agreed noted explained believes feels felt promised confirmed argued \
    shared joined went came laughed smiled cried married graduated texted called hugged \
    moved lives lived works worked studied loves hates invited visited helped taught \
    introduced recommended reminded admitted decided started finished became turned got";

pub fn is_subject_verb(word: &str) -> bool {
    listed(word, SUBJECT_VERBS)
}

/// English short forms that do not spell the start of the name they stand for
/// ("Kate" for Katherine, "Bob" for Robert); a prefix ("Mel", "Jon") needs no entry.
const SHORT_FORMS: &str = "kate:katherine|catherine|kathryn|kathleen \
    katie:katherine|catherine|kathryn|kathleen kathy:katherine|kathleen|kathryn \
    bob:robert bobby:robert rob:robert robbie:robert bill:william billy:william \
    will:william liam:william liz:elizabeth lizzie:elizabeth beth:elizabeth betty:elizabeth \
    eliza:elizabeth jim:james jimmy:james jamie:james jack:john johnny:john mike:michael \
    mikey:michael nate:nathan|nathaniel tony:anthony|antonio rick:richard ricky:richard \
    dick:richard peggy:margaret maggie:margaret meg:margaret sue:susan|suzanne \
    susie:susan|suzanne drew:andrew andy:andrew tom:thomas tommy:thomas joe:joseph \
    joey:joseph dave:david davey:david chuck:charles charlie:charles|charlotte \
    ted:edward|theodore teddy:edward|theodore ned:edward eddie:edward jen:jennifer \
    jenny:jennifer becky:rebecca becca:rebecca nick:nicholas|nicolas vicky:victoria \
    tori:victoria abby:abigail gabby:gabriella|gabrielle|gabriel gabe:gabriel \
    pat:patricia|patrick patty:patricia larry:lawrence|laurence harry:henry|harold \
    hank:henry zach:zachary sasha:alexandra|alexander|aleksandr alex:alexandra|alexander \
    lexi:alexandra|alexis xander:alexander sandy:sandra|alexandra sam:samantha|samuel \
    sammy:samantha|samuel ben:benjamin benny:benjamin frank:francis|franklin \
    fran:frances|francesca cathy:catherine molly:mary polly:mary jess:jessica|jesse \
    jessie:jessica chris:christopher|christina|christine kit:christopher|katherine \
    steph:stephanie dan:daniel danny:daniel dani:daniela|danielle greg:gregory \
    matt:matthew mattie:matilda|martha tilly:matilda manny:manuel pete:peter \
    val:valerie|valentina phil:philip|phillip ray:raymond ron:ronald ronnie:ronald \
    don:donald|donovan wendy:gwendolyn kim:kimberly tim:timothy timmy:timothy \
    fred:frederick|alfred freddie:frederick|alfred ed:edward|edwin|edmund";

/// Whether `short` (lower case) is a common short form of the given name `full`.
pub fn is_short_form(short: &str, full: &str) -> bool {
    let prefix = short.chars().count() >= 3 && full.len() > short.len() && full.starts_with(short);
    prefix
        || SHORT_FORMS.split_whitespace().any(|entry| {
            entry
                .split_once(':')
                .is_some_and(|(s, fulls)| s == short && fulls.split('|').any(|f| f == full))
        })
}
