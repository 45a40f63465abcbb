//! The offline model's built-in word lists: stopwords, common first names, a small
//! gazetteer, organisation suffixes and words that are capitalised but never names.
//! Lookups only: nothing iterates these sets into output.

use std::collections::HashSet;
use std::sync::LazyLock;

fn set(words: &'static str) -> HashSet<&'static str> {
    words.split_whitespace().collect()
}

/// Function words, auxiliaries, fillers and very general verbs: never keywords or
/// concepts, down-weighted in embeddings.
pub static STOPWORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "a about above after again against all almost along already also although always am among \
            an and another any anybody anyone anything anyway anyways are aren't around as at away \
            back be became because become been before being below besides best better between \
            beyond both but by can can't cannot could couldn't did didn't do does doesn't doing \
            don't done down during each either else enough etc even ever every everybody everyone \
            everything few for from further get gets getting go goes going gone gonna got gotten \
            gotta had hadn't has hasn't have haven't having he he'd he'll he's her here here's \
            hers herself him himself his how how's however i i'd i'll i'm i've if in instead into \
            is isn't it it'd it'll it's its itself just keep kept kind know knew known least less \
            let let's like likely lot lots made make makes making many may maybe me mean means \
            meant might mine more most mostly much must my myself need needed needs neither never \
            no nobody none nor not nothing now of off often oh ok okay on once one ones only onto \
            or other others otherwise our ours ourselves out over own perhaps please pretty put \
            quite rather really right said same say saying says see seem seemed seems seen several \
            shall she she'd she'll she's should shouldn't since so some somebody someone something \
            sometimes somewhat soon sort still stuff such sure take taken takes tell than thank \
            thanks that that's the their theirs them themselves then there there's these they \
            they'd they'll they're they've thing things think thinking thought this those though \
            through thus till to too took toward towards try trying uh um under unless until up \
            upon us use used very via wanna want wanted wants was wasn't way we we'd we'll we're \
            we've well went were weren't what what's whatever when where whether which while who \
            who's whoever whole whom whose why will with within without won't would wouldn't yeah \
            yep yes yet you you'd you'll you're you've your yours yourself yourselves hmm hi hello \
            hey guess actually basically literally totally definitely probably honestly seriously \
            anyway alright cool great good nice awesome fine bit little big lot today tomorrow \
            yesterday tonight tonight's morning evening afternoon week weeks day days month months \
            year years time times also again able ago came come comes coming let's look looking \
            looked looks give gave given goes told asked ask asking talk talked talking call \
            called feel felt find found mentioned mention sounds sound agreed agree okay gets one \
            two three four five six seven eight nine ten first second third next last new old lots \
            much many really yeah right cannot wasn't happen happened happens start started \
            starting end ended whole everyone's monday tuesday wednesday thursday friday saturday \
            sunday january february march april june july august september october november \
            december",
    )
});

/// Common nouns too general to be a Concept on their own.
pub static GENERIC_NOUNS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "time thing things people person team way ways idea ideas point points question questions \
            part parts place places number numbers case fact problem problems issue issues stuff \
            today tomorrow yesterday morning afternoon evening night week weeks month months year \
            years day days meeting meetings call calls update updates minute minutes hour hours \
            end side guys folks everyone anyone someone something anything everything nothing \
            moment while work job stuff lot bit kind sort type group today's item items thanks \
            note notes email emails message messages thread channel subject title from plan plans \
            list working taking waiting sending checking reviewing helping leaving following \
            pushing putting setting seeing hearing telling sitting wondering happening including \
            according regarding during nothing something anything everything morning evening \
            everyone",
    )
});

/// Capitalised words that are never people or entities: sentence starters, greetings,
/// days, months, titles, pronouns, header labels.
pub static NON_NAMES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "monday tuesday wednesday thursday friday saturday sunday mondays fridays weekend january \
            february march april may june july august september october november december yes no \
            okay ok yeah yep nope hi hello hey dear thanks thank sorry please sure great good nice \
            cool awesome right well so also then now today tomorrow yesterday tonight morning \
            afternoon evening maybe perhaps actually basically anyway agreed absolutely definitely \
            exactly totally honestly hopefully unfortunately fortunately overall meanwhile however \
            otherwise oh ah wow hmm um uh let lets next last first second third finally before \
            after during since until while once everyone everybody someone anyone nobody guys \
            folks all both each every any some many most several regarding re fwd fw subject from \
            to cc bcc title date note notes update agenda summary action todo speaker unknown \
            question answer q a an the this that these those there here it its we our you your he \
            she they them his her their i i'm i'll i've i'd me my mine what when where why how who \
            which whatever if and but or nor for so yet as at by in of on with about into over \
            under again just only even still really very quick quickly great welcome congrats \
            congratulations cheers regards best sincerely warm kind love bye goodbye morning \
            meeting call sync standup team happy merry ceo cto cfo coo vp svp evp head director \
            manager lead engineer designer intern chair",
    )
});

/// Titles that mark the following capitalised words as a person's name.
pub static TITLES: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| set("mr mrs ms miss dr prof professor sir madam dame mx"));

/// Acronyms common in speech that are not organisations.
pub static COMMON_ACRONYMS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "api apis ceo cto cfo coo cmo vp svp evp hr pr prs qa ui ux ai ml llm okr okrs kpi kpis \
            eta eod eow asap fyi btw roi sla mvp poc faq faqs tbd tba ok pm am id it sql css html \
            json pdf url urls sdk b2b b2c saas crm erp nda q1 q2 q3 q4 h1 h2 fy ar vr tv usb cpu \
            gpu ram ssd rsvp diy aka tldr tl imo imho lol omg ps pps ios os gdp phd mba bsc msc \
            ama cv gtm ops devops sre oncall",
    )
});

/// Last words that make a capitalised phrase an organisation.
pub static ORG_SUFFIXES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "inc corp corporation ltd llc llp plc gmbh ag sa co company labs lab university bank group \
            capital partners technologies technology systems software institute college foundation \
            ventures holdings agency associates consulting media networks solutions industries \
            airlines airways motors pharmaceuticals pharma hospital clinic school academy studios \
            studio analytics robotics dynamics logistics insurance bancorp fund trust council \
            ministry department association society club",
    )
});

/// First words that, followed by "of", start an organisation or place name.
pub static ORG_HEADS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "university bank department ministry institute college school museum bureau office board \
            city republic kingdom state gulf bay lake isle port church",
    )
});

/// Well-known organisations that carry no suffix.
pub static KNOWN_ORGS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "google microsoft apple amazon meta facebook netflix openai anthropic nvidia intel ibm \
            oracle salesforce stripe uber lyft airbnb spotify tesla twitter linkedin samsung sony \
            adobe shopify paypal deloitte mckinsey accenture kpmg pwc goldman walmart target \
            costco starbucks nasa unicef who nhs fbi harvard stanford mit oxford cambridge yale \
            princeton berkeley",
    )
});

/// Well-known products and tools.
pub static KNOWN_PRODUCTS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "slack jira notion figma zoom excel powerpoint confluence asana trello github gitlab \
            docker kubernetes postgres postgresql mysql redis kafka react python rust chatgpt \
            gmail outlook iphone ipad android windows linux macos tableau hubspot zendesk dropbox \
            whatsapp instagram tiktok youtube",
    )
});

/// Words that make a capitalised phrase a place.
pub static PLACE_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "city county street avenue road boulevard park lake river mountain mountains island \
            islands beach valley bay airport station square harbor harbour heights hills village \
            province district coast",
    )
});

/// Words that make a capitalised phrase an event.
pub static EVENT_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "conference summit festival expo meetup hackathon olympics cup fair gala marathon wedding \
            retreat offsite symposium workshop forum championship tournament christmas \
            thanksgiving easter diwali hanukkah halloween ramadan eid",
    )
});

/// Major cities, countries, states and regions (lower case; multi-word names spelled out).
pub static PLACES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    "new york|san francisco|los angeles|chicago|boston|seattle|austin|denver|miami|atlanta|dallas|\
        houston|portland|philadelphia|washington|washington dc|san diego|san jose|las vegas|\
        phoenix|detroit|nashville|toronto|vancouver|montreal|ottawa|calgary|mexico city|london|\
        paris|berlin|munich|hamburg|frankfurt|madrid|barcelona|lisbon|rome|milan|amsterdam|\
        rotterdam|brussels|vienna|zurich|geneva|prague|warsaw|budapest|stockholm|oslo|copenhagen|\
        helsinki|dublin|edinburgh|manchester|athens|istanbul|moscow|kyiv|dubai|abu dhabi|tel aviv|\
        jerusalem|cairo|lagos|nairobi|johannesburg|cape town|mumbai|delhi|new delhi|bangalore|\
        bengaluru|hyderabad|chennai|pune|kolkata|karachi|lahore|dhaka|singapore|hong kong|shanghai|\
        beijing|shenzhen|tokyo|osaka|kyoto|seoul|taipei|bangkok|hanoi|manila|jakarta|kuala lumpur|\
        sydney|melbourne|brisbane|perth|auckland|sao paulo|rio de janeiro|buenos aires|santiago|\
        lima|bogota|usa|us|uk|eu|america|united states|united kingdom|canada|mexico|brazil|\
        argentina|chile|colombia|peru|england|scotland|wales|ireland|france|germany|spain|portugal|\
        italy|netherlands|belgium|switzerland|austria|poland|sweden|norway|denmark|finland|greece|\
        turkey|russia|ukraine|israel|egypt|nigeria|kenya|south africa|morocco|india|pakistan|\
        bangladesh|china|japan|korea|south korea|taiwan|thailand|vietnam|philippines|indonesia|\
        malaysia|australia|new zealand|saudi arabia|qatar|iceland|europe|asia|africa|latin america|\
        north america|south america|middle east|scandinavia|silicon valley|bay area|california|\
        texas|florida|oregon|colorado|arizona|nevada|utah|ohio|michigan|illinois|massachusetts|\
        new jersey|pennsylvania|virginia|north carolina|georgia|tennessee|minnesota|wisconsin|\
        hawaii|alaska|bavaria|tuscany|provence|catalonia|ontario|quebec|british columbia"
        .split('|')
        .map(str::trim)
        .collect()
});

/// Common given names across many cultures (lower case). Names that are also everyday
/// words ("will", "mark", "may") are left out on purpose.
pub static FIRST_NAMES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set(
        "aaron abby abigail adam adrian aisha alan albert alex alexa alexander alexandra alexis \
            ali alice alicia alison allison amanda amber amelia amir amit amy ana andrea andrew \
            andy angela anita ann anna anne annie anthony antonio arjun arthur ashley ava barbara \
            beatriz ben benjamin beth betty blake brandon brenda brian brittany bruce bryan caleb \
            cameron camila carl carla carlos carmen carol caroline carter catherine charles \
            charlie charlotte chen chloe chris christian christina christine christopher claire \
            clara cody colin connor craig cynthia dan dana daniel daniela danielle david deborah \
            debra deepak denise dennis derek diana diane diego dmitri dominic donald donna dorothy \
            dylan ed eddie edward elena eli elijah elizabeth ella ellen emily emma eric erica erik \
            erin ethan eugene eva evan evelyn fatima felix fernando fiona francesca francisco \
            gabriel gabriela gary george gina greg gregory hannah harold harry hassan heather \
            helen henry hiroshi hugo ian igor isaac isabel isabella ivan jack jackie jacob jake \
            james jamie jane janet jared jason javier jean jeff jeffrey jen jennifer jenny jeremy \
            jerry jesse jessica jill jim jimmy joan joe joel john johnny jon jonathan jordan jorge \
            jose joseph josh joshua juan judith judy julia julian julie justin kai karen karl kate \
            katherine kathleen kathryn katie kavya kayla keith kelly ken kenji kenneth kevin kim \
            kimberly kumar kyle laura lauren leah lee leo leon liam lily linda lisa liz logan \
            lorenzo louis lucas lucia lucy luis luke lydia madison maggie malik manuel marco \
            marcus margaret maria mariana marie marina mario marta martha martin mary matt matthew \
            maya megan mei melissa mia michael michelle miguel mike mila min mohammed mohammad \
            muhammad monica nadia nancy naomi natalie nathan neha nicholas nick nicole nikhil nina \
            noah noor olga oliver olivia omar oscar owen pablo pamela patricia patrick paul paula \
            pedro peter philip priya rachel rafael rahul raj rajesh ravi raymond rebecca ricardo \
            richard rick riley rita robert roberto robin rohan ronald rosa ruby ruth ryan sam \
            samantha samuel sandra sanjay santiago sara sarah scott sean sergei shannon sharon \
            shirley simon sofia sophia sophie stephanie stephen steve steven susan suresh tanya \
            taylor teresa terry thomas tim timothy tina todd tom tommy tony tyler valentina \
            vanessa victor victoria vikram vincent virginia walter wei wendy william xavier yan \
            yuki yusuf zach zachary zoe zara aditya ananya anjali divya kiran lakshmi meera pooja \
            rani sunita tariq yasmin leila hamza ibrahim khalid layla omari kwame amara chidi \
            ngozi thabo sipho lars sven ingrid astrid bjorn nils johan henrik anders klaus jurgen \
            dieter hans ines joao luca giulia matteo sofie pierre louise camille antoine hugo \
            manon jacques francois hana jun hao li ming xin yi ying jia haruto sakura takeshi \
            akira minji jisoo seojun",
    )
});
